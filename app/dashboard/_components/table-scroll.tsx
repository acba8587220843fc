import type { ReactNode } from "react";
import { tableWrap } from "./styles";

/** A table that may scroll sideways on a phone: a named region that the keyboard can reach and scroll. */
export function TableScroll({
  label,
  children,
  className = "",
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section className={`${tableWrap} ${className}`} aria-label={`${label} table`} tabIndex={0}>
      {children}
    </section>
  );
}
