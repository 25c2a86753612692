"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { FormField } from "@/components/forms/form-field";
import type { PlantListFilterField } from "@/lib/validations/plant-list";
import { PLANT_SORT_LABELS, PLANT_SORTS, plantListHref, type PlantSort } from "@/lib/validations/plant-list-url";

type Fields = { q: string; tag: string; sort: PlantSort };

/**
 * Finds plants by name and tag, in an order: a GET form, so that it works
 * before (or without) JavaScript and every search is a URL. With JavaScript it
 * navigates to the search's one URL (no empty fields) in place, so focus stays
 * here and the count of the match is announced.
 */
export function PlantSearchForm({ fields, errors, tags }: { fields: Fields; errors: Partial<Record<PlantListFilterField, string>>; tags: string[] }) {
  const router = useRouter();
  // The fields follow the URL (a link to another search, the back button) and what is typed in between.
  const [values, setValues] = useState(fields);
  const [shown, setShown] = useState(fields);
  if (shown.q !== fields.q || shown.tag !== fields.tag || shown.sort !== fields.sort) {
    setShown(fields);
    setValues(fields);
  }

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The name's text trimmed, as the page reads it (lib/validations/plant-list.ts); the tag exactly as written.
    const q = values.q.trim();
    router.push(plantListHref({ q: q === "" ? undefined : q, tag: values.tag === "" ? undefined : values.tag, sort: values.sort }));
  }

  const filtered = fields.q !== "" || fields.tag !== "";
  return (
    <form role="search" aria-label="Find plants" action="/" method="get" onSubmit={search} className="plant-search">
      <FormField id="plant-search-q" label="Name contains" hint="Ignoring case." error={errors.q}>
        {(described) => <input {...described} type="search" name="q" value={values.q} onChange={(event) => setValues({ ...values, q: event.target.value })} autoComplete="off" />}
      </FormField>
      <FormField id="plant-search-tag" label="Tag" hint="Exactly as written." error={errors.tag}>
        {(described) => (
          <input {...described} type="text" name="tag" list="plant-search-tags" value={values.tag} onChange={(event) => setValues({ ...values, tag: event.target.value })} autoComplete="off" spellCheck={false} />
        )}
      </FormField>
      <datalist id="plant-search-tags">
        {tags.map((tag) => (
          <option key={tag} value={tag} />
        ))}
      </datalist>
      <div className="field">
        <label htmlFor="plant-search-sort">Sort</label>
        <select id="plant-search-sort" name="sort" value={values.sort} onChange={(event) => setValues({ ...values, sort: PLANT_SORTS.find((sort) => sort === event.target.value) ?? values.sort })}>
          {PLANT_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {PLANT_SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
      <div className="plant-search-actions">
        <button type="submit">Search</button>
        {filtered && <Link href={plantListHref({ sort: fields.sort })}>Show every plant</Link>}
      </div>
    </form>
  );
}
