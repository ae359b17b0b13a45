-- Addresses are stored in their canonical form (kernel/mailbox.ts): lower case throughout. The
-- unique index accounts_email is on lower(email), so no two rows can meet here.
update accounts set email = lower(email) where email <> lower(email);
