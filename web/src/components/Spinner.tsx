export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" className="spinner">
      <span className="spinner__circle" aria-hidden="true" />
      <span className="spinner__label">{label}</span>
    </div>
  );
}
