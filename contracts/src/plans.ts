/**
 * A tool's plans (docs/product.md, Tool data): the three stored detailedPricing shapes normalised into the list the
 * tool page shows, and the editor's list saved back as the structured shape (c). Loading a tool into the editor and
 * saving it unchanged therefore keeps the plans its page shows.
 */
import type { DetailedPricing, PricingPlanObject } from './tools';

export interface PricingPlan {
  key: string;
  name: string;
  price?: string;
  features: string[];
  description?: string;
  highlight?: boolean;
}

export interface ParsedDetails {
  label?: string;
  price?: string;
  features: string[];
  /** Details that do not follow the "price - features" form, shown as written. */
  text?: string;
}

const splitFeatures = (s: string) =>
  s
    .split(/[,;\n]/)
    .map((f) => f.trim())
    .filter(Boolean);

/** "label: price - feature, feature; feature" (every part optional). */
export function parseDetails(details: string): ParsedDetails {
  let rest = details.trim();
  let label: string | undefined;
  const labelMatch = /^([^:\n]{1,40}):\s*(.*)$/s.exec(rest);
  // A colon inside a price ("$10: ...") is unlikely; a label never starts with a digit or currency sign.
  if (labelMatch && !/^[$€£\d]/.test(labelMatch[1])) {
    label = labelMatch[1].trim();
    rest = labelMatch[2].trim();
  }
  const dash = rest.indexOf(' - ');
  if (dash >= 0)
    return { label, price: rest.slice(0, dash).trim() || undefined, features: splitFeatures(rest.slice(dash + 3)) };
  if (label) return { label, price: rest || undefined, features: [] };
  return { features: [], text: rest || undefined };
}

const titleCase = (key: string) => key.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

function fromDetails(key: string, name: string, details: string): PricingPlan {
  const d = parseDetails(details);
  return { key, name, price: d.price, features: d.features, description: d.text };
}

/** Normalises the three detailedPricing shapes (docs/product.md, Tool data); plans lacking a name or details are skipped. */
export function parsePricingPlans(pricing: DetailedPricing | null | undefined): PricingPlan[] {
  if (!pricing || typeof pricing !== 'object') return [];
  let plans: PricingPlan[];
  if (Array.isArray(pricing)) {
    plans = [...pricing]
      .filter(
        (p) => p && typeof p.name === 'string' && p.name.trim() && typeof p.details === 'string' && p.details.trim(),
      )
      .sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity))
      .map((p, i) => fromDetails(String(p.id ?? i), p.name!.trim(), p.details!));
  } else {
    plans = [];
    for (const [key, value] of Object.entries(pricing)) {
      if (typeof value === 'string') {
        if (key.trim() && value.trim()) plans.push(fromDetails(key, titleCase(key), value));
      } else if (value && typeof value === 'object') {
        const v = value as PricingPlanObject;
        const features = Array.isArray(v.features) ? v.features.filter((f) => typeof f === 'string' && f.trim()) : [];
        if (!v.name?.trim() || (!v.price?.trim() && !features.length && !v.description?.trim())) continue;
        plans.push({
          key,
          name: v.name.trim(),
          price: v.price?.trim() || undefined,
          features,
          description: v.description,
          highlight: !!v.highlight,
        });
      }
    }
  }
  return sortPlans(plans);
}

/** The order of docs/product.md (Tool data); unknown plan names sit before enterprise and custom. */
const PLAN_WEIGHTS: Record<string, number> = {
  free: 0,
  community: 0,
  basic: 1,
  starter: 2,
  individual: 3,
  pro: 4,
  premium: 5,
  standard: 6,
  plus: 7,
  team: 8,
  business: 9,
  enterprise: 11,
  custom: 12,
};
const UNKNOWN_WEIGHT = 10;

export function planWeight(name: string): number {
  for (const word of name.toLowerCase().split(/[^a-z]+/)) {
    if (word in PLAN_WEIGHTS) return PLAN_WEIGHTS[word];
  }
  return UNKNOWN_WEIGHT;
}

const isZeroPrice = (price: string | undefined) => !!price && /^(\$0(\.00)?|free)\b/i.test(price.trim());

/** Stable: plans of equal weight keep their given order. An unnamed-tier plan priced $0 (e.g. "Hobby") counts as free. */
function sortPlans(plans: PricingPlan[]): PricingPlan[] {
  const weight = (p: PricingPlan) => {
    const w = planWeight(p.name);
    return w === UNKNOWN_WEIGHT && isZeroPrice(p.price) ? PLAN_WEIGHTS.free : w;
  };
  return plans
    .map((p, i) => ({ p, i, w: weight(p) }))
    .sort((a, b) => a.w - b.w || a.i - b.i)
    .map((x) => x.p);
}

/** A plan as the console edits it: what the page shows of it, in the page's order. */
export interface EditablePlan {
  name: string;
  price?: string;
  features: string[];
  description?: string;
  highlight: boolean;
}

/** Any stored shape as the editor's list: exactly the plans the page shows, in its order. */
export function editablePlans(pricing: DetailedPricing | null | undefined): EditablePlan[] {
  return parsePricingPlans(pricing).map((p) => ({
    name: p.name,
    price: p.price,
    features: p.features,
    description: p.description?.trim() || undefined,
    highlight: !!p.highlight,
  }));
}

/**
 * The editor's list stored as shape (c), keyed by place (`plan-1`, ...) so the object keeps the list's order; the page
 * still orders plans by tier, keeping this order within a tier.
 */
export function storedPlans(plans: EditablePlan[]): Record<string, PricingPlanObject> {
  return Object.fromEntries(
    plans.map((p, i) => {
      const plan: PricingPlanObject = { name: p.name, features: p.features };
      if (p.price) plan.price = p.price;
      if (p.description) plan.description = p.description;
      if (p.highlight) plan.highlight = true;
      return [`plan-${i + 1}`, plan];
    }),
  );
}
