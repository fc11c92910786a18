import { afterEach, describe, expect, it, vi } from 'vitest';
import { shareOrCopy } from './share';

afterEach(() => {
  Reflect.deleteProperty(navigator, 'share');
});

describe('shareOrCopy', () => {
  it('uses the device share feature when present', async () => {
    const share = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    expect(await shareOrCopy({ title: 't', url: 'https://x.test/a' })).toBe('shared');
    expect(share).toHaveBeenCalledWith({ title: 't', url: 'https://x.test/a' });
  });

  it('otherwise copies the link and alerts "Link copied to clipboard!"', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    expect(await shareOrCopy({ url: 'https://x.test/b' })).toBe('copied');
    expect(writeText).toHaveBeenCalledWith('https://x.test/b');
    expect(alert).toHaveBeenCalledWith('Link copied to clipboard!');
  });
});
