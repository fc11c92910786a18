import { afterEach, describe, expect, it, vi } from 'vitest';
import { shareMailto, shareOrCopy } from './share';

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

describe('shareMailto', () => {
  it('writes an email with the title as subject and the text, then the address, as body', () => {
    const href = shareMailto({ title: 'R&D: 100% "AI"', text: 'One + two?', url: 'https://x.test/a?b=1&c=2' });
    expect(href).toBe(
      'mailto:?subject=R%26D%3A%20100%25%20%22AI%22&body=One%20%2B%20two%3F%0A%0Ahttps%3A%2F%2Fx.test%2Fa%3Fb%3D1%26c%3D2',
    );
  });

  it('leaves the text out when there is none', () => {
    expect(shareMailto({ url: 'https://x.test/' })).toBe('mailto:?subject=&body=https%3A%2F%2Fx.test%2F');
  });
});
