/** A select's options from a table of values and labels. */
export function SelectOptions({ options }: { options: readonly { value: string | number; label: string | number }[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}
