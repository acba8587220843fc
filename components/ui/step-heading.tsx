"use client";

import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * Whether steps that appear now should take focus. False during the first render of the page (focus stays
 * where the browser put it), true once the page is interactive: then a new step (the OTP form, a waiting
 * state, the result) moves focus to its heading, so keyboard and screen reader users land on it.
 */
export const FocusStepsContext = createContext<{ readonly current: boolean }>({ current: false });

/**
 * Steps that mount inside `children` for the first time do not take focus: a tab panel shown for the first
 * time (the tab keeps focus, so arrow keys go on working). Steps that appear inside it later do.
 */
export function QuietMount({ children }: { children: ReactNode }) {
  const outer = useContext(FocusStepsContext);
  const mounted = useRef(false);
  // Children's mount effects run before this one.
  useEffect(() => {
    mounted.current = true;
  }, []);
  const ready = useMemo(
    () => ({
      get current() {
        return outer.current && mounted.current;
      },
    }),
    [outer],
  );
  return <FocusStepsContext.Provider value={ready}>{children}</FocusStepsContext.Provider>;
}

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
  // A heading the server rendered and the browser only hydrates (late, when its code arrives in a chunk of
  // its own) was on screen all along: it is not a new step and leaves focus where the customer put it.
  const hydrating = !useHydrated();
  const fromServer = useRef(hydrating);
  useEffect(() => {
    if (ready.current && !fromServer.current) ref.current?.focus();
  }, [ready]);
  const Tag = level === 2 ? "h2" : "h3";
  return (
    <Tag ref={ref} tabIndex={-1} className={`${className} focus:outline-none`}>
      {children}
    </Tag>
  );
}
