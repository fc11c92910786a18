import { beforeEach, describe, expect, it } from 'vitest';
import { clampPage, totalPages } from '@aitools/contracts/toolQuery';
import { pageRange } from './pagination';
import { comboKey, forgetPage, PAGE_MEMORY_KEY, rememberedPage, rememberPage } from './pageMemory';

describe('page arithmetic', () => {
  it('counts pages (at least 1)', () => {
    expect(totalPages(0, 24)).toBe(1);
    expect(totalPages(24, 24)).toBe(1);
    expect(totalPages(25, 24)).toBe(2);
    expect(totalPages(156, 12)).toBe(13);
  });
  it('clamps the requested page to 1..total', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(-3, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(3, 5)).toBe(3);
  });
  it('gives the "Showing X to Y of Z" range', () => {
    expect(pageRange(1, 24, 156)).toEqual({ from: 1, to: 24 });
    expect(pageRange(7, 24, 156)).toEqual({ from: 145, to: 156 });
    expect(pageRange(1, 24, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe('page memory', () => {
  beforeEach(() => localStorage.clear());
  it('remembers a page per category, type and search combination', () => {
    const dev = comboKey('Development', 'all', '');
    rememberPage(dev, 3);
    rememberPage(comboKey('All', 'all', ''), 2);
    expect(rememberedPage(dev)).toBe(3);
    expect(rememberedPage(comboKey('Development', 'ai-tool', ''))).toBeNull();
    expect(rememberedPage(comboKey('All', 'all', ''))).toBe(2);
    expect(JSON.parse(localStorage.getItem(PAGE_MEMORY_KEY)!)).toEqual({ [dev]: 3, [comboKey('All', 'all', '')]: 2 });
  });
  it('treats search case and spaces alike, and forgets on page 1 or on request', () => {
    rememberPage(comboKey('All', 'all', 'Chat '), 4);
    expect(rememberedPage(comboKey('All', 'all', 'chat'))).toBe(4);
    forgetPage(comboKey('All', 'all', 'chat'));
    expect(rememberedPage(comboKey('All', 'all', 'chat'))).toBeNull();
    rememberPage(comboKey('All', 'all', ''), 2);
    rememberPage(comboKey('All', 'all', ''), 1);
    expect(rememberedPage(comboKey('All', 'all', ''))).toBeNull();
  });
  it('survives garbage in storage', () => {
    localStorage.setItem(PAGE_MEMORY_KEY, '[1,2');
    expect(rememberedPage(comboKey('All', 'all', ''))).toBeNull();
    localStorage.setItem(PAGE_MEMORY_KEY, '[1,2]');
    rememberPage(comboKey('All', 'all', ''), 2);
    expect(rememberedPage(comboKey('All', 'all', ''))).toBe(2);
  });
});
