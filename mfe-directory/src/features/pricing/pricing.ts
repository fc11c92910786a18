import { firstPricing } from '@aitools/contracts/toolQuery';

/** Badge colour key, case-insensitive on free / freemium / paid; anything else is neutral. */
export function pricingTone(pricing: string | undefined): 'free' | 'freemium' | 'paid' | 'neutral' {
  const p = firstPricing(pricing).toLowerCase();
  return p === 'free' || p === 'freemium' || p === 'paid' ? p : 'neutral';
}

// The plans' normalisation is shared with the console's plan editor (an unchanged save shows the same plans).
export {
  parseDetails,
  parsePricingPlans,
  planWeight,
  type ParsedDetails,
  type PricingPlan,
} from '@aitools/contracts/plans';

/** A price longer than 15 characters gets a short form for small screens; shorter prices need none. */
export function shortPrice(price: string): string | null {
  if (price.length <= 15) return null;
  const short = price.replace(/\/month\b/gi, '/mo').replace(/\/year\b/gi, '/yr');
  return short === price ? null : short;
}
