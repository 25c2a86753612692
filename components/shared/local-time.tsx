"use client";

import { useHydrated } from "@/lib/client/use-hydrated";

// A moment shown in the viewer's own time zone, short ("23 Nov 2026, 14:05"),
// with the exact time (seconds, zone, and UTC) on hover (title, which is
// also its accessible description) and on keyboard focus (drawn by CSS from
// data-exact, so it is never part of the text a row reads as). The server
// cannot know the viewer's zone: it renders UTC, and the browser re-renders in
// its own zone once hydrated (useSyncExternalStore's server snapshot), so the
// first paint never disagrees with the markup.

const SHORT: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
const EXACT: Intl.DateTimeFormatOptions = { ...SHORT, weekday: "short", second: "2-digit", timeZoneName: "short" };

export function LocalTime({ date, fallback = "never" }: { date: Date | string | null; fallback?: string }) {
  const hydrated = useHydrated();
  if (date === null) return <>{fallback}</>;
  const moment = typeof date === "string" ? new Date(date) : date;
  const iso = moment.toISOString();
  const timeZone = hydrated ? undefined : "UTC";
  const short = new Intl.DateTimeFormat("en-GB", { ...SHORT, timeZone }).format(moment);
  const exact = `${new Intl.DateTimeFormat("en-GB", { ...EXACT, timeZone }).format(moment)} (${iso})`;
  return (
    // Focusable so that keyboard users reach the exact time too (WCAG 1.4.13, 2.1.1).
    <time className="local-time" dateTime={iso} title={exact} data-exact={exact} tabIndex={0}>
      {hydrated ? short : `${short} UTC`}
    </time>
  );
}
