/**
 * A JSON Schema (as zod-openapi writes it into the document) rendered as nested lists: each property with its
 * type, whether it is required, its rules and its description. Server-rendered; no script.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  example?: unknown;
};

export type Components = Record<string, JsonSchema>;

function resolve(schema: JsonSchema, components: Components): { schema: JsonSchema; name?: string } {
  if (!schema.$ref) return { schema };
  const name = schema.$ref.split("/").pop() ?? "";
  return { schema: components[name] ?? {}, name };
}

/** A nullable schema (`anyOf: [X, {type: "null"}]`, or `type: [X, "null"]`) as X plus a flag. */
function unwrapNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const rest = variants.filter((v) => v.type !== "null");
    if (rest.length === 1 && rest.length < variants.length) {
      const [only] = rest;
      return { schema: { ...only, description: schema.description ?? only?.description }, nullable: true };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((t) => t !== "null");
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

function typeLabel(schema: JsonSchema, components: Components, name?: string): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (type === "array" && schema.items) {
    const item = resolve(schema.items, components);
    return `array of ${item.name ?? typeLabel(unwrapNull(item.schema).schema, components)}`;
  }
  if (type === "integer" || type === "number") return type;
  const label = type ?? (schema.anyOf || schema.oneOf ? "one of" : "any");
  return name ? `${label} (${name})` : label;
}

function rules(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.format) out.push(schema.format);
  if (schema.minLength !== undefined) out.push(`≥ ${schema.minLength} chars`);
  if (schema.maxLength !== undefined) out.push(`≤ ${schema.maxLength} chars`);
  if (schema.minimum !== undefined && schema.minimum > -9e15) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < 9e15) out.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined) out.push(`≥ ${schema.minItems} items`);
  if (schema.maxItems !== undefined) out.push(`≤ ${schema.maxItems} items`);
  if (schema.pattern && schema.pattern.length <= 40) out.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

export function SchemaView({
  schema,
  components,
  depth = 0,
}: {
  schema: JsonSchema;
  components: Components;
  depth?: number;
}) {
  const { schema: target } = resolve(schema, components);
  const { schema: plain } = unwrapNull(target);
  const variants = plain.anyOf ?? plain.oneOf;
  if (variants && depth < 6) {
    return (
      <ol className="mt-1 space-y-2 text-sm">
        {variants.map((variant, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the variants of one schema never reorder
          <li key={i} className="rounded-md border border-slate-200 p-2">
            <p className="text-xs font-medium text-slate-700">Variant {i + 1}</p>
            <SchemaView schema={variant} components={components} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }
  if (plain.type === "array" && plain.items) {
    return <SchemaView schema={plain.items} components={components} depth={depth + 1} />;
  }
  const properties = Object.entries(plain.properties ?? {});
  if (properties.length === 0 || depth > 6) {
    return <p className="mt-1 text-sm text-slate-700">{typeLabel(plain, components)}</p>;
  }
  const required = new Set(plain.required ?? []);
  return (
    <ul className="mt-1 divide-y divide-slate-100 text-sm">
      {properties.map(([name, raw]) => {
        const { schema: resolved, name: refName } = resolve(raw, components);
        const { schema: prop, nullable } = unwrapNull(resolved);
        const nested =
          Object.keys(prop.properties ?? {}).length > 0 ||
          (prop.type === "array" &&
            prop.items &&
            Object.keys(resolve(prop.items, components).schema.properties ?? {}).length > 0) ||
          (prop.anyOf ?? prop.oneOf) !== undefined;
        const description = raw.description ?? resolved.description;
        return (
          <li key={name} className="py-1.5">
            <code className="font-semibold text-slate-900">{name}</code>{" "}
            <span className="text-slate-700">{typeLabel(prop, components, refName)}</span>
            {nullable && <span className="text-slate-700"> or null</span>}
            {required.has(name) ? (
              <span className="ml-1 text-xs font-medium text-red-800">required</span>
            ) : (
              <span className="ml-1 text-xs text-slate-600">optional</span>
            )}
            {rules(prop).length > 0 && (
              <span className="ml-1 text-xs text-slate-600">· {rules(prop).join(" · ")}</span>
            )}
            {description && <p className="text-slate-700">{description}</p>}
            {nested && (
              <div className="mt-1 border-l-2 border-slate-200 pl-3">
                <SchemaView schema={prop} components={components} depth={depth + 1} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
