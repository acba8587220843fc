"use client";

import { type ReactNode, useEffect, useRef } from "react";

/**
 * A native <details> disclosure that also closes the way a menu does: on a tap or click outside it, on Escape
 * (focus back on its summary), and once a choice inside it is made (a form submitted, a link followed), so an
 * open menu never stays over the page's own buttons. Without JavaScript it is a plain <details>.
 */
export function DismissibleDetails({
  className,
  testId,
  children,
}: {
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = () => {
      details.open = false;
    };
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      close();
      details.querySelector("summary")?.focus();
    };
    const onChoice = (event: Event) => {
      if (event.type === "submit" || (event.target as Element).closest("a[href]")) close();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    details.addEventListener("submit", onChoice);
    details.addEventListener("click", onChoice);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
      details.removeEventListener("submit", onChoice);
      details.removeEventListener("click", onChoice);
    };
  }, []);
  return (
    <details ref={ref} className={className} data-testid={testId}>
      {children}
    </details>
  );
}
