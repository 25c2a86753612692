import type { MetadataRoute } from "next";

// The web app manifest (/manifest.webmanifest), so the staff app can be put
// on a phone's home screen and open as an app of its own. It opens on Add a
// plant: the page that works offline (lib/client/offline/service-worker.ts),
// which is where someone in the greenhouse, without a signal, wants to be.
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Plant Store",
    short_name: "Plants",
    description: "Record the plants your store holds.",
    start_url: "/plants/new",
    scope: "/",
    display: "standalone",
    background_color: "#fbfcf8",
    theme_color: "#1f6b3a",
    icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
  };
}
