// GET /dashboard/api/customers?email=&cursor= - the console mode's customers; POST - create one (or find the email's).
import { customersEndpoints } from "@/lib/customers/endpoints";
import { consoleRoutes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(
  customersEndpoints.consoleList,
  customersEndpoints.consoleCreate,
);
