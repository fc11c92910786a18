import { legalRoute } from './LegalPage';

function Cookies() {
  return (
    <>
      <section>
        <h2>We do not use cookies</h2>
        <p>
          This site is cookieless. It sets no cookies, first-party or third-party, and shows no cookie banner because
          there is nothing to consent to.
        </p>
      </section>
      <section>
        <h2>Analytics without cookies</h2>
        <p>
          Our privacy-first analytics service works without cookies. Its data is anonymized, processed in the EU, and
          involves no cross-site tracking.
        </p>
      </section>
      <section>
        <h2>Local storage</h2>
        <p>
          Your browser's local storage keeps a few preferences on your own device only, such as your light or dark theme
          choice and the page you last viewed in the directory. They are never sent to us, and you can clear them at any
          time from your browser settings.
        </p>
      </section>
    </>
  );
}

export default legalRoute('cookies', Cookies);
