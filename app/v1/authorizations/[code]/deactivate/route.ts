// POST /v1/authorizations/{code}/deactivate - stop a saved card for good (secret key).
import { customersEndpoints } from "@/lib/customers/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(customersEndpoints.deactivate);
