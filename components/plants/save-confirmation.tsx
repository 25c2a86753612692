import type { SavedOutcome } from "@/components/plants/plant-form";
import type { NewPlant } from "@/lib/validations/plant";

/** What the form tells of the last plant: how it was saved, or, for one kept in this browser, what became of it since. */
export type LastPlant = SavedOutcome | { kind: "refused when sent"; plant: NewPlant };

/**
 * What became of the last plant, announced as it changes: stored (with a
 * link to it), already stored (an identical plant was there: nothing was
 * written), kept in this browser to be sent later, or, kept and then sent,
 * refused. One message, saying where the plant is now (issue 20). Always in
 * the page, empty or not, so that screen readers announce each new message.
 */
export function SaveConfirmation({ saved, signInHref }: { saved: LastPlant | undefined; signInHref: string }) {
  return (
    <p id="plant-form-status" className="confirmation" role="status">
      {saved && <Message saved={saved} signInHref={signInHref} />}
    </p>
  );
}

function Message({ saved, signInHref }: { saved: LastPlant; signInHref: string }) {
  const { id, name, tag } = saved.plant;
  const about = `${tag ? ` (${tag})` : ""} with id ${id.toString()}`;
  if (saved.kind === "refused when sent") {
    return (
      <>
        Not stored: the app refused {name}
        {about} when it was sent. It waits below, to be changed or discarded.
      </>
    );
  }
  if (saved.kind === "kept") {
    const plant = `${name}${about}`;
    if (saved.because === "signed out") {
      return (
        <>
          Your session has ended: {plant} is kept in this browser. <a href={signInHref}>Sign in again</a>, and it will be sent.
        </>
      );
    }
    return <>No connection: {plant} is kept in this browser, and will be sent when the connection returns.</>;
  }
  // A plain link: /plants/{id} is both the API and, for a browser's navigation, the plant's page.
  const link = <a href={`/plants/${id.toString()}`}>{name}</a>;
  if (saved.replayed) {
    return (
      <>
        {link}
        {about} was already stored; nothing was changed.
      </>
    );
  }
  return (
    <>
      Saved {link}
      {about}.
    </>
  );
}
