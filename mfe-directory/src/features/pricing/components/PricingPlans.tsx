import { shortPrice, type PricingPlan } from '../pricing';

/** A price with its short form for small screens when it is long (CSS picks one). */
function Price({ price }: { price: string }) {
  const short = shortPrice(price);
  if (!short) return <span className="dir-plan__price">{price}</span>;
  return (
    <span className="dir-plan__price">
      <span className="dir-price--full">{price}</span>
      <span className="dir-price--short">{short}</span>
    </span>
  );
}

export function PricingPlans({ plans }: { plans: PricingPlan[] }) {
  return (
    <section aria-labelledby="dir-pricing-title" className="dir-detail__section">
      <h2 id="dir-pricing-title">Pricing Plans</h2>
      <ul className="dir-plans">
        {plans.map((plan) => (
          <li key={plan.key} className={`dir-plan${plan.highlight ? ' dir-plan--highlight' : ''}`}>
            <h3 className="dir-plan__name">{plan.name}</h3>
            {plan.highlight && <span className="badge dir-badge--popular">Popular</span>}
            {plan.price && <Price price={plan.price} />}
            {plan.description && <p className="dir-plan__desc">{plan.description}</p>}
            {plan.features.length > 0 && (
              <ul className="dir-plan__features">
                {plan.features.map((f, i) => (
                  <li key={i}>{f}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
