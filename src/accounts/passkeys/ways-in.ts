// What lets a person into their account besides a passkey. The password column is never null;
// an account without a password (one made by another way in) holds an empty hash there,
// which no password matches.
export function hasPassword(account: { password_hash: string }): boolean {
  return account.password_hash !== '';
}
