const path = require("node:path");

// Built with the project's own Next.js (node_modules two levels up).
module.exports = { poweredByHeader: false, turbopack: { root: path.resolve(__dirname, "../../..") } };
