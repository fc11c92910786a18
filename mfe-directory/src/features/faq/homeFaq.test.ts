import { describe, expect, it } from 'vitest';
import { HOME_FAQ } from './homeFaq';

describe('home FAQ', () => {
  it('has 20 entries naming the four pricing models', () => {
    expect(HOME_FAQ).toHaveLength(20);
    const text = HOME_FAQ.map((f) => f.answer).join(' ');
    for (const model of ['Free', 'Freemium', 'Subscription', 'One-time purchase']) expect(text).toContain(model);
  });
});
