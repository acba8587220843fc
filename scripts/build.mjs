// npm run build: the server SDK when its OpenAPI document or sources changed (scripts/sdk-build.mjs), then the
// app into NEXT_DIST_DIR (default .next): next build, its stylesheet, and the list of the source files it was
// made from, which `npm start`, `npm test` and the benches compare to decide whether to build again.
import { ensureBuilt } from "./prepare.mjs";

ensureBuilt({ force: true });
