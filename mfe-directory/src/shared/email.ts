/** name@domain.tld shown as name[at]domain[dot]tld (dots of the domain only; docs/product.md, Directory). */
export function obfuscateEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  return `${email.slice(0, at)}[at]${email.slice(at + 1).replace(/\./g, '[dot]')}`;
}
