import Link from "next/link";

/** /plants/{id} for an id no plant has (deleted, mistyped, or not an id at all). */
export default function PlantNotFound() {
  return (
    <>
      <h1>No such plant</h1>
      <p>
        No plant has this id: it may have been deleted, or the address is mistyped. <Link href="/">Find it among the plants</Link>.
      </p>
    </>
  );
}
