import { describe, expect, it } from 'vitest';
import { editablePlans, parsePricingPlans, storedPlans } from './plans';
import type { DetailedPricing } from './tools';

/** The three stored shapes (docs/product.md, Tool data). */
const shapes: Record<string, DetailedPricing> = {
  list: [
    { id: 7, name: 'Pro', details: 'Monthly: $20/month - Unlimited chats, Projects', order: 2 },
    { id: 3, name: 'Free', details: '$0 - Basic chat', order: 1 },
    { id: 9, name: 'Enterprise', details: 'Contact sales', order: 3 },
  ],
  strings: { free: '$0 - Basic chat', pro: '$20/month - Unlimited chats; Projects', team_plan: 'Custom pricing' },
  structured: {
    enterprise: { name: 'Enterprise', description: ' Talk to us ' },
    pro: { name: 'Pro', price: '$20/month', features: ['Unlimited chats', ''], highlight: true },
    hobby: { name: 'Hobby', price: '$0', features: [] },
    empty: { name: 'Nameless price only' },
  },
};

describe('plans in the editor', () => {
  it.each(Object.keys(shapes))('an unchanged save of the %s shape shows the same plans', (shape) => {
    const before = parsePricingPlans(shapes[shape]);
    const after = parsePricingPlans(storedPlans(editablePlans(shapes[shape])));
    // The key is not shown; an absent highlight shows as false does.
    const shown = (plans: typeof before) =>
      plans.map(({ key: _key, ...p }) => ({ ...p, description: p.description?.trim(), highlight: !!p.highlight }));
    expect(shown(after)).toEqual(shown(before));
    expect(after.length).toBeGreaterThan(0);
  });

  it('loads plans in the page order, with what the page shows of each', () => {
    expect(editablePlans(shapes.list)).toEqual([
      { name: 'Free', price: '$0', features: ['Basic chat'], description: undefined, highlight: false },
      {
        name: 'Pro',
        price: '$20/month',
        features: ['Unlimited chats', 'Projects'],
        description: undefined,
        highlight: false,
      },
      { name: 'Enterprise', price: undefined, features: [], description: 'Contact sales', highlight: false },
    ]);
    expect(editablePlans(undefined)).toEqual([]);
  });

  it('stores the list as structured plans under keys that keep its order', () => {
    const stored = storedPlans([
      { name: 'Team', price: '$30', features: [], highlight: true },
      { name: 'Starter', features: ['One seat'], description: 'For one', highlight: false },
    ]);
    expect(stored).toEqual({
      'plan-1': { name: 'Team', price: '$30', features: [], highlight: true },
      'plan-2': { name: 'Starter', features: ['One seat'], description: 'For one' },
    });
    expect(Object.keys(stored)).toEqual(['plan-1', 'plan-2']);
  });
});
