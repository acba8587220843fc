import openapiTS from "openapi-typescript";
import { openApiDocument } from "./document";

/** The TypeScript types of the OpenAPI document, as lib/openapi/paygate-api.d.ts holds them. */
export async function generateApiTypes(): Promise<string> {
  const document = openApiDocument("http://localhost:3000");
  return openapiTS(document as unknown as Parameters<typeof openapiTS>[0]);
}
