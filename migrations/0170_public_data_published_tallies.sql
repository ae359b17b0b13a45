-- Roll calls keep the tallies their source published. A source may publish a tally whose votes it
-- does not list person by person (eLMS roll calls where a ward's vote is missing while the totals
-- still add up to 50): the tally stays as published and the missing votes are not invented, so the
-- number of votes reported (count of `votes`) may be lower than the tally's total. When a source
-- publishes no tally, ingest counts one from the votes (tallies_published false).
alter table roll_calls add column tallies_published boolean not null default false;
