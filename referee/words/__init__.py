"""What people read: status tables, echoes, log lines, change summaries and
card whereabouts, worded from the rules' values and each game's phrases.
The rules never import this layer; it reads them."""
