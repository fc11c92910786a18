import { useEffect, useRef, useState } from 'react';
import { Form, useNavigate, useSearchParams } from 'react-router-dom';
import { contactEmail, defineRoute, type RouteProps } from '@aitools/platform';
import { IDEMPOTENCY_KEY_FIELD } from '@aitools/contracts/formOptions';
import { Modal } from '../shared/Modal';
import {
  ADVERTISE_PATH,
  earlyAccessAction,
  earlyAccessForm,
  keepEarlyAccessRecord,
} from '../features/advertise/earlyAccess';
import { formPageLoader, type FormPageData } from '../shared/formRoute';
import { pageHead } from '../shared/pageHead';
import { useFormPost } from '../shared/useFormPost';
import { Field } from '../shared/Field';
import '../styles.css';

/** After "You're all set!" the visitor is taken home (docs/product.md, Advertise: after 2 seconds). */
const REDIRECT_AFTER_MS = 2000;

const STATS = [
  { value: '10K+', label: 'Monthly visitors' },
  { value: '150+', label: 'Tools listed' },
  { value: '95%', label: 'Tech-savvy audience' },
];

const OPTIONS = [
  {
    name: 'Sponsored Card',
    tier: 'Basic',
    price: '$299',
    placement: 'Appears as a regular card in the tool grid, marked as sponsored.',
    popular: false,
  },
  {
    name: 'Premium Banner',
    tier: 'Most Popular',
    price: '$599',
    placement: 'A banner placed above the search filters on the home page.',
    popular: true,
  },
  {
    name: 'Featured Spotlight',
    tier: 'Enterprise',
    price: '$999',
    placement: 'Hero placement at the top of the directory.',
    popular: false,
  },
];

const ROADMAP = [
  'Duration-based pricing: 1 week, 2 weeks or 4 weeks',
  'Dynamic pricing based on traffic',
  'A booking pipeline to reserve your slot',
  'A real-time analytics dashboard',
  'Secure card payments',
  'Content optimisation for your listing',
];

/** The page with the dialog closed: where "Close" leads when the code has not arrived or is off. */
const WAITLIST_CLOSED = `${ADVERTISE_PATH}?waitlist=closed`;

function Advertise({ data }: RouteProps<FormPageData>) {
  const navigate = useNavigate();
  const email = contactEmail();
  const [search] = useSearchParams();
  const { actionData, errors, formError, busy, clearError, checkBeforeSending, failedRef } = useFormPost(
    earlyAccessForm,
    ADVERTISE_PATH,
  );
  // The page opens with the early-access invitation on top of the (translucent) plans.
  const [modalOpen, setModalOpen] = useState(search.get('waitlist') !== 'closed');
  const subscribed = search.get('subscribed') === '1' && !actionData && !busy;
  const key = actionData?.idempotencyKey ?? data.idempotencyKey;
  const posted = useRef(false);
  if (busy) posted.current = true;
  // The address sent, kept in local storage only once the server stored it (docs/product.md, Advertise).
  const sending = useRef<string | null>(null);
  const reopenRef = useRef<HTMLButtonElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!subscribed) return;
    if (posted.current) doneRef.current?.focus();
    if (sending.current !== null) keepEarlyAccessRecord(sending.current);
    sending.current = null;
    const timer = setTimeout(() => navigate('/', { replace: true }), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [subscribed, navigate]);

  const message = formError ?? errors.email;
  // A page the server answered with a message for the address (sent before or without the code) loads with focus on
  // it, as the other forms do; with the code, the dialog's own focus (data-autofocus) lands there too.
  const serverMessage = !!(actionData?.formError ?? actionData?.fieldErrors.email);

  return (
    <main className="forms-page forms-advertise">
      <div className="forms-advertise__content" inert={modalOpen}>
        <header className="forms-header">
          <p className="badge">Coming soon</p>
          <h1>Advertise Your AI Tool</h1>
          <p>Put your product in front of people actively looking for AI tools and MCP servers.</p>
          {/* Without the code, this loads the page with the dialog open. */}
          <form
            method="get"
            action={ADVERTISE_PATH}
            onSubmit={(e) => {
              e.preventDefault();
              setModalOpen(true);
            }}
          >
            <button ref={reopenRef} type="submit" className="btn btn--primary">
              Join the Waitlist
            </button>
          </form>
        </header>

        <section aria-labelledby="advertise-stats-title">
          <h2 id="advertise-stats-title" className="visually-hidden">
            Our audience
          </h2>
          <ul className="forms-stats">
            {STATS.map((s) => (
              <li key={s.label} className="forms-glass forms-stat">
                <span className="forms-stat__value">{s.value}</span>
                <span className="forms-stat__label">{s.label}</span>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="advertise-options-title">
          <h2 id="advertise-options-title">Advertising options</h2>
          <ul className="forms-options">
            {OPTIONS.map((o) => (
              <li key={o.name} className={`forms-glass forms-option${o.popular ? ' forms-option--popular' : ''}`}>
                <span className="badge">{o.tier}</span>
                <h3>{o.name}</h3>
                <p className="forms-option__price">
                  From <strong>{o.price}</strong>/mo
                </p>
                <p>{o.placement}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="advertise-roadmap-title" className="forms-glass forms-roadmap">
          <h2 id="advertise-roadmap-title">What we're building</h2>
          <ul>
            {ROADMAP.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p>
            Expected launch: <strong>6-8 weeks</strong>.
          </p>
          <p>
            Questions or a custom campaign in mind? <a href={`mailto:${email}?subject=Advertising`}>Contact us</a>.
          </p>
        </section>
      </div>

      {modalOpen && (
        <Modal
          labelledBy="early-access-title"
          describedBy="early-access-text"
          onClose={() => setModalOpen(false)}
          returnFocusTo={() => reopenRef.current}
          closedUrl={WAITLIST_CLOSED}
        >
          {subscribed ? (
            <div className="forms-modal__done" role="status">
              <h2 id="early-access-title" ref={doneRef} tabIndex={-1}>
                You're all set!
              </h2>
              <p id="early-access-text">
                We'll email you as soon as advertising opens. Taking you back to the directory...
              </p>
              {/* Without script the browser's own refresh takes the visitor home (React renders nothing inside a
                  noscript in the app, where the script's navigation does it). */}
              <noscript>
                <meta httpEquiv="refresh" content={`${REDIRECT_AFTER_MS / 1000}; url=/`} />
              </noscript>
            </div>
          ) : (
            <>
              <h2 id="early-access-title">Advertising is launching soon</h2>
              <p id="early-access-text">
                Self-serve advertising opens in 6-8 weeks. Join the early-access list and be the first to book a
                placement.
              </p>
              {/* Posts to this page, so it also works before and without the code (noValidate: the schema's
                  messages in the browser and on the server). */}
              <Form
                key={key}
                className="forms-form"
                method="post"
                action={ADVERTISE_PATH}
                replace
                noValidate
                onSubmit={(e) => {
                  const address = new FormData(e.currentTarget).get('email');
                  const found = checkBeforeSending(e);
                  if (found && !Object.keys(found).length) sending.current = String(address);
                }}
                onChange={() => clearError('email')}
              >
                <input type="hidden" name={IDEMPOTENCY_KEY_FIELD} value={key} />
                <Field
                  id="early-access-email"
                  label="Email address"
                  required
                  error={busy ? undefined : message}
                  announce
                  autoFocus={serverMessage}
                >
                  {(control) => (
                    <input
                      {...control}
                      ref={failedRef}
                      type="email"
                      name="email"
                      autoComplete="email"
                      placeholder="you@company.com"
                      defaultValue={actionData?.values.email ?? ''}
                      disabled={busy}
                      data-autofocus
                    />
                  )}
                </Field>
                <div className="forms-modal__actions">
                  <button type="submit" className="btn btn--primary" disabled={busy}>
                    {busy ? 'Joining...' : 'Get Early Access'}
                  </button>
                  {/* Submits the form below (a GET to /) when the code has not arrived; with it, a route change. */}
                  <button
                    type="submit"
                    form="early-access-go-back"
                    className="btn btn--ghost"
                    onClick={(e) => {
                      e.preventDefault();
                      navigate('/');
                    }}
                  >
                    Go Back
                  </button>
                </div>
              </Form>
              <form id="early-access-go-back" method="get" action="/" hidden />
            </>
          )}
        </Modal>
      )}
    </main>
  );
}

export default defineRoute<FormPageData>({
  loader: formPageLoader,
  action: earlyAccessAction,
  head: pageHead(
    '/advertise',
    'Advertise Your AI Tool',
    'Reach 10K+ monthly visitors: sponsored cards, premium banners and featured spotlights for AI tools. Join the early-access list.',
  ),
  Component: Advertise,
});
