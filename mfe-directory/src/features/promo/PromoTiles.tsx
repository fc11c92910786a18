import { Link } from 'react-router-dom';

/** Advertising tiles (all lead to /advertise) and the way to the experts (/contact). */
export function PromoTiles() {
  return (
    <section className="dir-promo" aria-labelledby="dir-promo-title">
      <h2 id="dir-promo-title" className="visually-hidden">
        Advertise with us
      </h2>
      <div className="columns-3 dir-promo__grid">
        {[1, 2, 3].map((n) => (
          <Link key={n} to="/advertise" className="dir-promo__tile">
            <strong>Feature your AI tool here!</strong>
            <span>Click to learn more</span>
          </Link>
        ))}
      </div>
      <div className="dir-promo__reach">
        <p>Reach thousands of AI enthusiasts</p>
        {/* The visible words of docs/product.md (Directory), with a name that says where it leads for screen readers and crawlers. */}
        <Link to="/advertise">
          Learn more<span className="visually-hidden"> about advertising with us</span>
        </Link>
      </div>
      <div className="dir-promo__contact">
        <Link to="/contact" className="btn btn--primary">
          Contact Our AI Tools Experts
        </Link>
      </div>
    </section>
  );
}
