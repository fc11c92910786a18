import { legalRoute } from './LegalPage';

function Privacy() {
  return (
    <>
      <section>
        <h2>Our approach</h2>
        <p>
          This website is cookieless. We do not set cookies, and we do not use advertising or cross-site tracking
          technologies of any kind.
        </p>
      </section>
      <section>
        <h2>Analytics</h2>
        <p>
          We use a privacy-first analytics service to understand how the site is used. Analytics data is anonymized,
          processed in the EU, and never used for cross-site tracking.
        </p>
        <p>The data collected is limited to:</p>
        <ul>
          <li>Browser</li>
          <li>Operating system</li>
          <li>Anonymized IP address</li>
          <li>Pages visited</li>
          <li>Time of visit</li>
          <li>Referrer</li>
          <li>Device type</li>
          <li>Country</li>
        </ul>
      </section>
      <section>
        <h2>Information you send us</h2>
        <p>
          When you submit a tool, join the advertising waitlist or contact us, we store what you enter in the form (such
          as your name, email address and message) only to review your submission or answer you.
        </p>
      </section>
      <section>
        <h2>Your rights under the GDPR</h2>
        <ul>
          <li>The right to know what data we hold about you</li>
          <li>The right to have your data deleted</li>
          <li>The right to object to processing</li>
          <li>The right to data portability</li>
        </ul>
      </section>
      <section>
        <h2>Children</h2>
        <p>This site is not intended for children under 13, and we do not knowingly collect data from them.</p>
      </section>
    </>
  );
}

export default legalRoute('privacy', Privacy);
