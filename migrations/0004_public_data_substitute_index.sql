-- A matter's detail lists the substitutes that replaced it: look them up by index, not by scan.
create index matters_substitute_of on matters (substitute_of_id) where substitute_of_id is not null;
