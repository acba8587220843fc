import { Fragment, type ReactNode } from "react";

/**
 * A catalogue sentence with one placeholder rendered as an element ("You pay {total}." with the total in
 * bold): the words around it stay where the language puts them.
 */
export function withAmount(template: string, placeholder: string, node: ReactNode): ReactNode {
  const at = template.indexOf(placeholder);
  if (at < 0) return template;
  return (
    <Fragment>
      {template.slice(0, at)}
      {node}
      {template.slice(at + placeholder.length)}
    </Fragment>
  );
}
