import path from "node:path";

// Built with the project's own Next.js, from node_modules two levels up.
const nextConfig = { poweredByHeader: false, turbopack: { root: path.resolve(import.meta.dirname, "../..") } };

export default nextConfig;
