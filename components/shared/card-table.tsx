import type { ReactNode } from "react";

/** A column: its header, and what a row shows in it. */
export type CardTableColumn<Row> = {
  /** The column's header; on a card, the label over the value. */
  header: string;
  cell: (row: Row) => ReactNode;
  /**
   * For text with long unbroken runs (a label, an email, a URL, an id): it
   * may break between any two characters rather than widen the table. Other
   * columns break only between words, so a narrow one never splits "active".
   */
  breakAnywhere?: boolean;
};

type Naming = { caption: ReactNode; labelledBy?: never } | { labelledBy: string; caption?: never };

type CardTableProps<Row> = Naming & {
  /** The column that names each row: its row header, and the title of its card. */
  rowHeader: CardTableColumn<Row>;
  columns: readonly CardTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
};

/**
 * A table where there is room for one, and a card per row where there is not
 * (app/globals.css, "Tables that become cards"): nothing scrolls sideways at
 * 375 px and nothing is cut off. It switches on the width it is given (a
 * container query), not the window's, so it works in any column of a page.
 *
 * As cards, each value is shown under its column's header. That label is
 * hidden from assistive technology, which still reads the table as a table
 * and gets the header from it: the explicit roles keep the table's
 * semantics in browsers that drop them when CSS changes a table's display
 * (Safari, for one).
 */
export function CardTable<Row>({ caption, labelledBy, rowHeader, columns, rows, rowKey }: CardTableProps<Row>) {
  return (
    <div className="card-table-frame">
      <table className="card-table" role="table" aria-labelledby={labelledBy}>
        {caption !== undefined && <caption>{caption}</caption>}
        <thead role="rowgroup">
          <tr role="row">
            {[rowHeader, ...columns].map((column) => (
              <th key={column.header} scope="col" role="columnheader">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row">
              <th scope="row" role="rowheader" className={breakClass(rowHeader)}>
                {rowHeader.cell(row)}
              </th>
              {columns.map((column) => (
                <td key={column.header} role="cell" className={breakClass(column)}>
                  <span className="card-table-label" aria-hidden="true">
                    {column.header}
                  </span>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function breakClass(column: { breakAnywhere?: boolean }): string | undefined {
  return column.breakAnywhere ? "break-anywhere" : undefined;
}
