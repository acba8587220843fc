"use client";

import { type KeyboardEvent, type MouseEvent, type ReactNode, useId, useRef, useState } from "react";
import { QuietMount } from "./step-heading";

export type TabItem = {
  id: string;
  /** The tab's accessible name, exactly. */
  label: string;
  /** Extra text under the name, exposed as the tab's description (not its name). */
  detail?: ReactNode;
  panel: ReactNode;
};

/**
 * WAI-ARIA tabs with automatic activation: one tab stop (roving tabindex), arrow keys, Home and End move
 * and select. A panel is rendered the first time its tab is selected and stays mounted after (hidden when
 * not selected), so a half-filled form or a running countdown survives switching tabs, while the first
 * load renders and hydrates only the panel the customer sees.
 *
 * Each tab is a link to the page with that tab chosen (`hrefFor`): tapped before the page's code runs, or
 * with JavaScript off, it loads that page, rendered with its panel by the server; once the code runs, a
 * plain click selects in place (a click with a modifier key still opens the link as the browser would).
 */
export function Tabs({
  label,
  items,
  selected,
  onSelect,
  hrefFor,
  listRef,
}: {
  label: string;
  items: TabItem[];
  selected: string;
  onSelect: (id: string) => void;
  /** The address of the page with tab `id` chosen. */
  hrefFor: (id: string) => string;
  listRef?: React.Ref<HTMLDivElement>;
}) {
  const base = useId();
  const tabs = useRef<Array<HTMLAnchorElement | null>>([]);
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set([selected]));
  if (!visited.has(selected)) setVisited(new Set([...visited, selected]));

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const current = items.findIndex((t) => t.id === selected);
    let next = -1;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (current + 1) % items.length;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp")
      next = (current - 1 + items.length) % items.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    const target = items[next];
    if (!target) return;
    event.preventDefault();
    onSelect(target.id);
    tabs.current[next]?.focus();
  }

  function onClick(event: MouseEvent<HTMLAnchorElement>, id: string) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onSelect(id);
  }

  const columns =
    items.length >= 4 ? "grid-cols-2 sm:grid-cols-4" : items.length === 3 ? "grid-cols-3" : "grid-cols-2";
  return (
    <div>
      <div
        ref={listRef}
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        // Every row as tall as the tallest tile (auto-rows-fr), so a label that wraps never leaves tiles uneven.
        className={`grid auto-rows-fr gap-2 ${items.length === 1 ? "grid-cols-1" : columns}`}
      >
        {items.map((tab, i) => {
          const active = tab.id === selected;
          // The tab holds only its name; the detail sits beside it in the same card (outside the tab, so the
          // name is exactly the label), tied to it by aria-describedby. The tab's ::after covers the whole
          // card, so a click anywhere on it selects the tab.
          return (
            <div
              key={tab.id}
              className={`relative flex min-w-0 flex-col items-start rounded-lg border-2 px-3 py-2 transition has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-slate-900 ${
                active
                  ? "border-[var(--brand,#0f766e)] bg-slate-50"
                  : "border-slate-200 bg-white hover:border-slate-400"
              }`}
            >
              <a
                ref={(el) => {
                  tabs.current[i] = el;
                }}
                href={hrefFor(tab.id)}
                role="tab"
                id={`${base}-tab-${tab.id}`}
                aria-selected={active}
                aria-controls={`${base}-panel-${tab.id}`}
                aria-describedby={tab.detail ? `${base}-detail-${tab.id}` : undefined}
                tabIndex={active ? 0 : -1}
                onClick={(event) => onClick(event, tab.id)}
                className="text-left text-sm font-semibold text-slate-900 no-underline outline-none after:absolute after:inset-0 after:rounded-lg after:content-['']"
              >
                {tab.label}
              </a>
              {tab.detail && (
                <span
                  id={`${base}-detail-${tab.id}`}
                  aria-hidden="true"
                  className="mt-auto pt-0.5 text-xs text-slate-600 tabular-nums"
                >
                  {tab.detail}
                </span>
              )}
            </div>
          );
        })}
      </div>
      {items.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${base}-panel-${tab.id}`}
          aria-labelledby={`${base}-tab-${tab.id}`}
          hidden={tab.id !== selected}
          className="pt-5"
        >
          {visited.has(tab.id) && <QuietMount>{tab.panel}</QuietMount>}
        </div>
      ))}
    </div>
  );
}
