import { describe, expect, it } from 'vitest';
import { firstPricing } from '@aitools/contracts/toolQuery';
import { parseDetails, parsePricingPlans, planWeight, pricingTone, shortPrice } from './pricing';

describe('pricing badge', () => {
  it('shows only the first value of a comma list', () => {
    expect(firstPricing('Paid, Freemium')).toBe('Paid');
    expect(firstPricing('Free')).toBe('Free');
    expect(firstPricing(undefined)).toBe('');
  });
  it('colours free, freemium and paid case-insensitively, others neutral', () => {
    expect(pricingTone('FREE')).toBe('free');
    expect(pricingTone('freemium, Paid')).toBe('freemium');
    expect(pricingTone('Paid')).toBe('paid');
    expect(pricingTone('Enterprise')).toBe('neutral');
  });
});

describe('parseDetails', () => {
  it('reads "label: price - feature, feature; feature"', () => {
    expect(parseDetails('Plus: $20/month - higher limits, deep research; agent mode')).toEqual({
      label: 'Plus',
      price: '$20/month',
      features: ['higher limits', 'deep research', 'agent mode'],
    });
  });
  it('reads "price - features" without a label and features split on newlines', () => {
    expect(parseDetails('$0 - chat on web\nfile uploads')).toEqual({
      label: undefined,
      price: '$0',
      features: ['chat on web', 'file uploads'],
    });
  });
  it('reads a label with a price only', () => {
    expect(parseDetails('Enterprise: Custom pricing')).toEqual({
      label: 'Enterprise',
      price: 'Custom pricing',
      features: [],
    });
  });
  it('keeps free text that follows no format', () => {
    expect(parseDetails('Contact sales for a quote')).toEqual({ features: [], text: 'Contact sales for a quote' });
  });
  it('keeps hyphenated words inside features', () => {
    expect(parseDetails('Pro: $10/month - real-time sync, multi-user').features).toEqual([
      'real-time sync',
      'multi-user',
    ]);
  });
});

describe('parsePricingPlans', () => {
  it('(a) a list of plans: ordered, details parsed, plans without name or details skipped, then sorted by weight', () => {
    const plans = parsePricingPlans([
      { id: 3, name: 'Enterprise', details: 'Enterprise: Custom pricing', order: 3 },
      { id: 1, name: 'Pro', details: 'Pro: $20/month - everything, more', order: 2 },
      { id: 2, name: 'Free', details: 'Free: $0 - basics', order: 1 },
      { id: 4, name: '', details: 'x: $1 - y', order: 4 },
      { id: 5, name: 'Team', order: 5 },
    ]);
    expect(plans.map((p) => [p.name, p.price, p.features])).toEqual([
      ['Free', '$0', ['basics']],
      ['Pro', '$20/month', ['everything', 'more']],
      ['Enterprise', 'Custom pricing', []],
    ]);
  });
  it('(b) an object of plan key to a details string', () => {
    const plans = parsePricingPlans({ team: '$25/user/month - admin; SSO', free: '$0 - chat', empty: '  ' });
    expect(plans).toEqual([
      { key: 'free', name: 'Free', price: '$0', features: ['chat'], description: undefined },
      { key: 'team', name: 'Team', price: '$25/user/month', features: ['admin', 'SSO'], description: undefined },
    ]);
  });
  it('(c) an object of plan key to a structured plan, with highlight and description', () => {
    const plans = parsePricingPlans({
      'ai-pro': { name: 'Google AI Pro', price: '$19.99/month', features: ['2 TB'], highlight: true },
      free: { name: 'Free', price: '$0', features: ['Gemini app'], description: 'For everyone' },
      nameless: { price: '$5' },
      hollow: { name: 'Hollow' },
    });
    expect(plans).toEqual([
      {
        key: 'free',
        name: 'Free',
        price: '$0',
        features: ['Gemini app'],
        description: 'For everyone',
        highlight: false,
      },
      {
        key: 'ai-pro',
        name: 'Google AI Pro',
        price: '$19.99/month',
        features: ['2 TB'],
        description: undefined,
        highlight: true,
      },
    ]);
  });
  it('is empty for nothing', () => {
    expect(parsePricingPlans(undefined)).toEqual([]);
    expect(parsePricingPlans(null)).toEqual([]);
  });
});

describe('plan sort weights', () => {
  it('orders free/community, basic, starter, individual, pro, premium, standard, plus, team, business, enterprise, custom', () => {
    const names = [
      'Custom',
      'Enterprise',
      'Business',
      'Team',
      'Plus',
      'Standard',
      'Premium',
      'Pro',
      'Individual',
      'Starter',
      'Basic',
      'Community',
      'Free',
    ];
    const weights = names.map(planWeight);
    expect([...weights].sort((a, b) => a - b)).toEqual([...weights].reverse());
    expect(planWeight('Free')).toBe(planWeight('Community'));
    expect(planWeight('Hobby')).toBeGreaterThan(planWeight('Business'));
    expect(planWeight('Hobby')).toBeLessThan(planWeight('Enterprise'));
    expect(planWeight('Team Pro')).toBe(planWeight('Team'));
  });
  it('places an unknown plan priced $0 with the free plans, other unknown plans before enterprise', () => {
    const plans = parsePricingPlans({
      enterprise: 'Custom',
      ultra: '$200/month - most',
      pro: '$20/month - more',
      hobby: '$0 - basics',
    });
    expect(plans.map((p) => p.name)).toEqual(['Hobby', 'Pro', 'Ultra', 'Enterprise']);
  });
});

describe('shortPrice', () => {
  it('shortens prices longer than 15 characters for small screens', () => {
    expect(shortPrice('$25/user/month billed annually')).toBe('$25/user/mo billed annually');
    expect(shortPrice('$200/year per seat')).toBe('$200/yr per seat');
  });
  it('leaves short prices and prices without a unit alone', () => {
    expect(shortPrice('$20/month')).toBeNull();
    expect(shortPrice('Custom pricing for teams')).toBeNull();
  });
});
