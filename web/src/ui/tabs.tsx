import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { prefetchRoute } from '../app/routes';

export interface Tab {
  to: string;
  label: string;
  end?: boolean;
  /** A number shown after the label ("3"), and what it counts for screen readers ("pending"). */
  count?: { value: number; of: string };
}

/**
 * A narrow screen scrolls the row of tabs sideways: as a page opens, its tab is scrolled into the
 * row's view, else the page named "Guardrails" would show "Overview Dashboard Playground Conv…".
 * Only the row scrolls, never the page.
 */
function useCurrentTabInView() {
  const row = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: again on each page the tabs lead to.
  useEffect(() => {
    const current = row.current?.querySelector('[aria-current="page"]');
    if (!row.current || !current) return;
    const shown = row.current.getBoundingClientRect();
    const tab = current.getBoundingClientRect();
    if (tab.left < shown.left) row.current.scrollLeft -= shown.left - tab.left;
    else if (tab.right > shown.right) row.current.scrollLeft += tab.right - shown.right;
  }, [pathname]);
  return row;
}

/**
 * A row of links to sub-pages, the current one marked (`aria-current="page"`). Pointing at a tab
 * (hover, or focus from the keyboard) loads its page's code, so the click finds it loaded.
 */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  const row = useCurrentTabInView();
  return (
    <nav ref={row} className="tabs" aria-label={label}>
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
