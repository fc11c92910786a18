import { Link } from 'react-router-dom';
import type { Tool } from '@aitools/contracts/tools';
import type { ToolDetailExtras } from '@aitools/contracts/mcp';
import { LogoTile } from '../tools/components/LogoTile';
import { toolPath } from '@aitools/platform/routes';
import './similar.css';

/** "Similar tools": the 4-6 tools the API computed for this one (same type and category, shared tags). */
export function SimilarTools({ tool }: { tool: Tool }) {
  const similar = (tool as Tool & ToolDetailExtras).similar ?? [];
  if (!similar.length) return null;
  return (
    <section aria-labelledby="dir-similar-title" className="dir-detail__section dir-similar">
      <h2 id="dir-similar-title">Similar tools and alternatives</h2>
      <ul className="dir-similar__list tiles">
        {similar.map((t) => (
          <li key={t.slug} className="tile">
            <LogoTile name={t.name} logo={t.logo} size={40} />
            <div>
              <Link to={toolPath(t.slug)} className="dir-similar__name">
                {t.name}
              </Link>
              <p className="dir-similar__desc">{t.description}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
