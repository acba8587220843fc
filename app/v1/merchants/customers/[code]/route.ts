// GET /v1/merchants/customers/{code} - one customer with its saved cards; PATCH - change it (session token).
import { customersEndpoints } from "@/lib/customers/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  customersEndpoints.consoleGet,
  customersEndpoints.consoleUpdate,
);
