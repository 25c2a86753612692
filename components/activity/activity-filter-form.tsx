"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { FormField } from "@/components/forms/form-field";

/** The filters as the URL has them, text (the page reads and checks them: lib/activity/activity-search.ts). */
export type ActivityFilterFields = { person: string; action: string; plant: string; from: string; to: string };
export type ActivityFilterOption = { value: string; label: string };
export type ActivityActionGroup = { label: string; options: ActivityFilterOption[] };

const PATH = "/activity";
const FIELDS = ["person", "action", "plant", "from", "to"] as const;

// A date input shows only a date: a date and time with its offset (from a
// link, or typed into the URL) is shown as text, so that it is seen as it is.
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Finds activity records by person, kind of change, plant and time: a GET
 * form, so that it works without JavaScript and every search is a URL. With
 * JavaScript it navigates to the search's one URL (no empty fields) in place,
 * so focus stays here and the count of records is announced.
 */
export function ActivityFilterForm({
  fields,
  errors,
  people,
  actionGroups,
}: {
  fields: ActivityFilterFields;
  errors: Partial<Record<keyof ActivityFilterFields, string>>;
  people: ActivityFilterOption[];
  actionGroups: ActivityActionGroup[];
}) {
  const router = useRouter();
  // The fields follow the URL (a link to another search, the back button) and what is typed in between.
  const [values, setValues] = useState(fields);
  const [shown, setShown] = useState(fields);
  if (FIELDS.some((field) => shown[field] !== fields[field])) {
    setShown(fields);
    setValues(fields);
  }
  const set = (field: keyof ActivityFilterFields) => (event: { target: { value: string } }) => setValues({ ...values, [field]: event.target.value });

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const field of FIELDS) {
      const value = field === "plant" ? values[field].trim() : values[field];
      if (value !== "") query.set(field, value);
    }
    const text = query.toString();
    router.push(text === "" ? PATH : `${PATH}?${text}`);
  }

  const filtered = FIELDS.some((field) => fields[field] !== "");
  return (
    <form role="search" aria-label="Find activity" action={PATH} method="get" onSubmit={search} className="plant-search activity-filters">
      <FormField id="activity-person" label="Person" hint="Their own changes and their API tokens'." error={errors.person}>
        {(described) => (
          <select {...described} name="person" value={values.person} onChange={set("person")}>
            <option value="">Everyone</option>
            {people.map((person) => (
              <option key={person.value} value={person.value}>
                {person.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField id="activity-action" label="Kind of change" error={errors.action}>
        {(described) => (
          <select {...described} name="action" value={values.action} onChange={set("action")}>
            <option value="">Every kind</option>
            {actionGroups.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </FormField>
      <FormField id="activity-plant" label="Plant id" error={errors.plant}>
        {(described) => <input {...described} type="text" inputMode="numeric" name="plant" value={values.plant} onChange={set("plant")} autoComplete="off" spellCheck={false} />}
      </FormField>
      <FormField id="activity-from" label="From" hint="From the start of this day, in UTC." error={errors.from}>
        {(described) => <input {...described} type={dateType(fields.from)} name="from" value={values.from} onChange={set("from")} />}
      </FormField>
      <FormField id="activity-to" label="To" hint="To the end of this day, in UTC." error={errors.to}>
        {(described) => <input {...described} type={dateType(fields.to)} name="to" value={values.to} onChange={set("to")} />}
      </FormField>
      <div className="plant-search-actions">
        <button type="submit">Show records</button>
        {filtered && <Link href={PATH}>Show all activity</Link>}
      </div>
    </form>
  );
}

function dateType(value: string): "date" | "text" {
  return value === "" || DATE_ONLY.test(value) ? "date" : "text";
}
