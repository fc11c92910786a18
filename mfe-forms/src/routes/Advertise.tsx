import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { contactEmail } from '@aitools/platform';
import { Modal } from '../components/Modal';
import { earlyAccessEmailError, joinEarlyAccess } from '../lib/earlyAccess';
import { usePageHead } from '../lib/pageHead';
import '../styles.css';

/** After "You're all set!" the visitor is taken home (SPEC section 9: the modal closes after 2 seconds). */
export const REDIRECT_AFTER_MS = 2000;

const STATS = [
  { value: '10K+', label: 'Monthly visitors' },
  { value: '150+', label: 'Tools listed' },
  { value: '95%', label: 'Tech-savvy audience' },
];

const OPTIONS = [
  { name: 'Sponsored Card', tier: 'Basic', price: '$299', placement: 'Appears as a regular card in the tool grid, marked as sponsored.', popular: false },
  { name: 'Premium Banner', tier: 'Most Popular', price: '$599', placement: 'A banner placed above the search filters on the home page.', popular: true },
  { name: 'Featured Spotlight', tier: 'Enterprise', price: '$999', placement: 'Hero placement at the top of the directory.', popular: false },
];

const ROADMAP = [
  'Duration-based pricing: 1 week, 2 weeks or 4 weeks',
  'Dynamic pricing based on traffic',
  'A booking pipeline to reserve your slot',
  'A real-time analytics dashboard',
  'Secure card payments',
  'Content optimisation for your listing',
];

type Phase = 'form' | 'sending' | 'submitted';

export default function Advertise() {
  usePageHead('/advertise', 'Advertise Your AI Tool', 'Reach 10K+ monthly visitors: sponsored cards, premium banners and featured spotlights for AI tools. Join the early-access list.');
  const navigate = useNavigate();
  const email = contactEmail();
  // The page opens with the early-access invitation on top of the (translucent) plans.
  const [modalOpen, setModalOpen] = useState(true);
  const [phase, setPhase] = useState<Phase>('form');
  const [address, setAddress] = useState('');
  const [failed, setFailed] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const reopenRef = useRef<HTMLButtonElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (phase !== 'submitted') return;
    doneRef.current?.focus();
    const timer = setTimeout(() => navigate('/', { replace: true }), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [phase, navigate]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!address.trim()) return;
    const invalid = earlyAccessEmailError(address);
    setEmailError(invalid);
    if (invalid) return;
    setFailed(false);
    setPhase('sending');
    const ok = await joinEarlyAccess(address);
    setFailed(!ok);
    setPhase(ok ? 'submitted' : 'form');
  };

  return (
    <main className="forms-page forms-advertise">
      <div className="forms-advertise__content" inert={modalOpen}>
        <header className="forms-header">
          <p className="badge">Coming soon</p>
          <h1>Advertise Your AI Tool</h1>
          <p>Put your product in front of people actively looking for AI tools and MCP servers.</p>
          <button ref={reopenRef} type="button" className="btn btn--primary" onClick={() => setModalOpen(true)}>
            Join the Waitlist
          </button>
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
        <Modal labelledBy="early-access-title" describedBy="early-access-text" onClose={() => setModalOpen(false)} returnFocusTo={() => reopenRef.current}>
          {phase === 'submitted' ? (
            <div className="forms-modal__done" role="status">
              <h2 id="early-access-title" ref={doneRef} tabIndex={-1}>
                You're all set!
              </h2>
              <p id="early-access-text">We'll email you as soon as advertising opens. Taking you back to the directory...</p>
            </div>
          ) : (
            <>
              <h2 id="early-access-title">Advertising is launching soon</h2>
              <p id="early-access-text">
                Self-serve advertising opens in 6-8 weeks. Join the early-access list and be the first to book a placement.
              </p>
              <form className="forms-form" method="post" onSubmit={onSubmit}>
                <div className="forms-field">
                  <label htmlFor="early-access-email">
                    Email address <span aria-hidden="true">*</span>
                  </label>
                  <input
                    id="early-access-email"
                    type="email"
                    name="email"
                    required
                    autoComplete="email"
                    placeholder="you@company.com"
                    value={address}
                    onChange={(e) => {
                      setAddress(e.target.value);
                      setEmailError(null);
                    }}
                    disabled={phase === 'sending'}
                    aria-invalid={emailError ? true : undefined}
                    aria-describedby={emailError ? 'early-access-email-error' : undefined}
                    data-autofocus
                  />
                  {emailError && (
                    <p id="early-access-email-error" className="forms-field__error" role="alert">
                      {emailError}
                    </p>
                  )}
                </div>
                {failed && (
                  <p className="forms-field__error" role="alert">
                    We couldn't save your email. Please try again.
                  </p>
                )}
                <div className="forms-modal__actions">
                  <button type="submit" className="btn btn--primary" disabled={phase === 'sending'}>
                    {phase === 'sending' ? 'Joining...' : 'Get Early Access'}
                  </button>
                  <button type="button" className="btn btn--ghost" onClick={() => navigate('/')}>
                    Go Back
                  </button>
                </div>
              </form>
            </>
          )}
        </Modal>
      )}
    </main>
  );
}
