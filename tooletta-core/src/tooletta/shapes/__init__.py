"""The message, call and tool shapes of other APIs and libraries, read and written.

OpenAI Chat, Hugging Face / TRL, tinker-cookbook, Anthropic Messages and OpenAI Responses: one
call (``calls``), whole conversations (``chat``, ``anthropic``, ``responses``, read in any
shape by ``read``, plain chat dicts by ``plain`` in one loop), tool definitions (``tools``),
ids (``ids``) and reasoning (``reasoning``). This package sits below the conversation layer,
which reads messages and tools in these shapes (:func:`tooletta.chat.read_conversation`); it
imports only the IR, the limits and the toolkit's id helpers. Its public names are exported by
:mod:`tooletta.interop` (and its modules of the same names), their documented home.
"""
