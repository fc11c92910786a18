import { SOCIAL_LINKS } from './site';

/** The site's social profiles, opening in a new tab (footer, home hero). */
export function SocialLinks({ className, label }: { className?: string; label: string }) {
  return (
    <ul className={className} aria-label={label}>
      {SOCIAL_LINKS.map((s) => (
        <li key={s.label}>
          <a href={s.href} target="_blank" rel="noopener noreferrer">
            {s.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
