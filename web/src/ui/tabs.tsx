import { NavLink } from 'react-router';
import { prefetchRoute } from '../app/routes';

export interface Tab {
  to: string;
  label: string;
  end?: boolean;
  /** A number shown after the label ("3"), and what it counts for screen readers ("pending"). */
  count?: { value: number; of: string };
}

/**
 * A row of links to sub-pages, the current one marked (`aria-current="page"`). Pointing at a tab
 * (hover, or focus from the keyboard) loads its page's code, so the click finds it loaded.
 */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink to={tab.to} end={tab.end} onMouseEnter={() => prefetchRoute(tab.to)} onFocus={() => prefetchRoute(tab.to)}>
              {tab.label}
              {tab.count !== undefined && tab.count.value > 0 && (
                <>
                  {' '}
                  <span className="tab-count">{tab.count.value}</span>
                  <span className="visually-hidden"> {tab.count.of}</span>
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
