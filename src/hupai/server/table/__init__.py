"""A room's table, by what each part answers: the actor (its inbox loop, rebuild and close), dealing,
decisions (prompts, due times, automatic choices), the match around the hands, moves, what players'
messages do, and views (what each connection is sent); their shared state is :mod:`.core`."""
