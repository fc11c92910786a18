import { Link } from 'react-router-dom';
import { legalRoute } from './LegalPage';

function Terms() {
  return (
    <>
      <section>
        <h2>License</h2>
        <p>
          You may view and share the content of this site for personal and non-commercial use. You may not republish the
          directory or its articles as your own without permission.
        </p>
      </section>
      <section>
        <h2>Disclaimer</h2>
        <p>
          Listings, prices and descriptions are provided as is, for information only. Tools and their terms change
          often: check the tool's own website before relying on any detail.
        </p>
      </section>
      <section>
        <h2>Conduct</h2>
        <p>
          Do not submit false, misleading or harmful content, do not attempt to disrupt the site, and do not use
          automated means to overload it.
        </p>
      </section>
      <section>
        <h2>Termination</h2>
        <p>We may remove listings or refuse submissions that break these terms, at any time and without notice.</p>
      </section>
      <section>
        <h2>Limitation of liability</h2>
        <p>We are not liable for any loss arising from the use of this site or of the third-party tools it lists.</p>
      </section>
      <section>
        <h2>Questions</h2>
        <p>
          Questions about these terms? <Link to="/contact">Contact us</Link>.
        </p>
      </section>
    </>
  );
}

export default legalRoute('terms', Terms);
