"use client";

import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import type { FieldAria } from "./field";
import { inputClass } from "./styles";

export type Option = { value: string; label: string };

/**
 * A searchable single-choice list (WAI-ARIA 1.2 combobox with a listbox popup): type to filter, arrows to
 * move, Enter or click to choose, Escape to close. `value` is the chosen option's value or null.
 */
export function Combobox({
  aria,
  options,
  value,
  onChange,
  placeholder,
  listLabel,
  disabled,
  noMatch = "No bank matches “{text}”.",
}: {
  aria: FieldAria;
  options: Option[];
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder?: string;
  listLabel: string;
  disabled?: boolean;
  /** Said when nothing matches; `{text}` is what was typed. */
  noMatch?: string;
}) {
  const listId = useId();
  const chosen = options.find((o) => o.value === value) ?? null;
  const [text, setText] = useState(chosen?.label ?? "");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);

  const filtered = useMemo(() => {
    const q = text.trim().toLowerCase();
    if (!q || (chosen && chosen.label === text)) return options;
    return options.filter((o) => o.label.toLowerCase().includes(q));
  }, [options, text, chosen]);

  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active, open]);

  function choose(option: Option) {
    setText(option.label);
    onChange(option.value);
    setOpen(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(
            Math.max(
              0,
              filtered.findIndex((o) => o.value === value),
            ),
          );
        } else setActive((i) => Math.min(i + 1, filtered.length - 1));
        break;
      case "ArrowUp":
        event.preventDefault();
        if (open) setActive((i) => Math.max(i - 1, 0));
        break;
      case "Enter": {
        const option = filtered[active];
        if (open && option) {
          event.preventDefault();
          choose(option);
        }
        break;
      }
      case "Escape":
        if (open) {
          event.preventDefault();
          setOpen(false);
        }
        break;
    }
  }

  const activeOption = open ? filtered[active] : undefined;
  return (
    <div className="relative">
      <input
        {...aria}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeOption ? `${listId}-${activeOption.value}` : undefined}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        value={text}
        placeholder={placeholder}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
          if (chosen && e.target.value !== chosen.label) onChange(null);
        }}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className={inputClass}
      />
      <div
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label={listLabel}
        hidden={!open || filtered.length === 0}
        className="absolute z-10 mt-1 max-h-60 w-full overflow-auto rounded-lg bg-white py-1 shadow-lg ring-1 ring-slate-300"
      >
        {filtered.map((option, i) => (
          // Keyboard is handled on the input (aria-activedescendant); options take clicks only.
          // biome-ignore lint/a11y/useKeyWithClickEvents: see above
          <div
            key={option.value}
            id={`${listId}-${option.value}`}
            data-index={i}
            role="option"
            tabIndex={-1}
            aria-selected={option.value === value}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(option)}
            onMouseMove={() => setActive(i)}
            className={`cursor-pointer px-3 py-2 text-sm text-slate-900 ${i === active ? "bg-slate-100" : ""} ${
              option.value === value ? "font-semibold" : ""
            }`}
          >
            {option.label}
          </div>
        ))}
      </div>
      <p role="status" className={open && filtered.length === 0 ? "mt-1 text-sm text-slate-700" : "sr-only"}>
        {open && filtered.length === 0 ? noMatch.replace("{text}", text) : ""}
      </p>
    </div>
  );
}
