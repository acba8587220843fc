"use client";

import { createContext, type ReactNode, useContext, useEffect, useRef } from "react";

/**
 * Whether steps that appear now should take focus. False during the first render of the page (focus stays
 * where the browser put it), true once the page is interactive: then a new step (the OTP form, a waiting
 * state, the result) moves focus to its heading, so keyboard and screen reader users land on it.
 */
export const FocusStepsContext = createContext<{ current: boolean }>({ current: false });

export function StepHeading({
  children,
  level = 2,
  className = "text-lg font-semibold text-slate-900",
}: {
  children: ReactNode;
  level?: 2 | 3;
  className?: string;
}) {
  const ready = useContext(FocusStepsContext);
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (ready.current) ref.current?.focus();
  }, [ready]);
  const Tag = level === 2 ? "h2" : "h3";
  return (
    <Tag ref={ref} tabIndex={-1} className={`${className} focus:outline-none`}>
      {children}
    </Tag>
  );
}
