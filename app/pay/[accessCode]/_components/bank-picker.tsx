"use client";

import { useLayoutEffect, useMemo, useRef } from "react";
import { Combobox } from "@/components/ui/combobox";
import type { FieldAria } from "@/components/ui/field";
import { inputClass } from "@/components/ui/styles";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { Bank } from "@/lib/checkout/types";
import { useCheckout } from "./context";

/**
 * The one bank picker of the checkout (bank payment and USSD). The server renders a plain <select> named
 * `name`, which the browser posts by itself; once the page's code has hydrated, the searchable picker
 * (Combobox) replaces it, keeping a bank already chosen in the plain one (read as hydration commits, before
 * the picker's render). A panel first opened after hydration has the searchable picker at once.
 */
export function BankPicker({
  aria,
  banks,
  value,
  onChange,
  name,
  placeholder = true,
}: {
  aria: FieldAria;
  banks: Bank[];
  value: string;
  onChange: (code: string) => void;
  /** The plain form's field. */
  name: string;
  /** The plain list starts on "Search banks…" (nothing chosen) rather than on `value`. */
  placeholder?: boolean;
}) {
  const { t } = useCheckout();
  const b = t.bankPayment;
  const searchable = useHydrated();
  const plain = useRef<HTMLSelectElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  useLayoutEffect(() => {
    const chosen = plain.current?.value;
    if (chosen) changed.current(chosen);
  }, []);
  const options = useMemo(() => banks.map((bank) => ({ value: bank.code, label: bank.name })), [banks]);
  if (searchable)
    return (
      <Combobox
        aria={aria}
        options={options}
        value={value || null}
        onChange={(code) => onChange(code ?? "")}
        placeholder={b.searchBanks}
        listLabel={b.banks}
        noMatch={b.noMatch}
      />
    );
  return (
    <select {...aria} ref={plain} name={name} defaultValue={placeholder ? "" : value} className={inputClass}>
      {placeholder && (
        <option value="" disabled>
          {b.searchBanks}
        </option>
      )}
      {banks.map((bank) => (
        <option key={bank.code} value={bank.code}>
          {bank.name}
        </option>
      ))}
    </select>
  );
}
