/** The Scout mark: a document with a magnifier, drawn inline so no asset request is needed. */
export function Logo({ size = 24 }: { size?: number }) {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect x="5" y="3" width="18" height="24" rx="3" fill="var(--accent)" />
      <path d="M9 9h10M9 13h10M9 17h6" stroke="var(--accent-contrast)" strokeWidth="2" strokeLinecap="round" />
      <circle cx="21" cy="21" r="5.5" fill="var(--bg)" stroke="var(--fg)" strokeWidth="2.2" />
      <path d="M25 25l4 4" stroke="var(--fg)" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}
