"""Prompts for decoder-only LLMs: one Jinja template renders the user's request, the model's chat template (or a
plain completion frame) wraps it.

The request template sees these variables (``--prompt FILE`` replaces the default one):

- ``source``: the sentence to translate (or whose candidate translations are scored);
- ``source_context``: list of the previous source sentences, oldest first (``--context N``; empty at 0);
- ``target_context``: list of their translations (the suite's for contrastive suites, the model's own when it
  translates), oldest first; empty when not given;
- ``src_lang``/``tgt_lang``: English language names ("English", "Russian"); ``src_code``/``tgt_code``: the codes;
- ``examples``: list of ``{"source": …, "target": …}`` few-shot pairs: ``PromptBuilder(examples=…)`` from Python;
  empty from the CLI, where a ``--prompt`` file writes its few-shot pairs into the template itself.

With a chat template (``tokenizer.chat_template``), the rendered request is one user message, rendered by the model's
own template with the generation prompt added and reasoning turned off where the template takes ``enable_thinking``
(Qwen3); the answer starts right after it. Without one, the prompt is the request, a line break, the target language
name and a colon (``…\\nRussian:``); the answer is what follows after one space. The template's sha256 goes in the
signature and the cache keys: another wording is another system.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from discotest.errors import InputError

DEFAULT_TEMPLATE = """\
{%- if examples %}Examples of {{ src_lang }} sentences and their {{ tgt_lang }} translations:
{% for ex in examples %}{{ src_lang }}: {{ ex.source }}
{{ tgt_lang }}: {{ ex.target }}
{% endfor %}
{% endif -%}
{%- if source_context %}Context ({{ src_lang }}):
{{ source_context | join("\\n") }}
{% if target_context %}Its translation ({{ tgt_lang }}):
{{ target_context | join("\\n") }}
{% endif %}
{% endif -%}
Translate this {{ src_lang }} sentence into {{ tgt_lang }}. Answer with the translation only.
{{ source }}"""

LANGUAGE_NAMES = {
    "ar": "Arabic", "cs": "Czech", "de": "German", "en": "English", "es": "Spanish", "fr": "French", "he": "Hebrew",
    "it": "Italian", "ja": "Japanese", "ko": "Korean", "nl": "Dutch", "pl": "Polish", "pt": "Portuguese",
    "ru": "Russian", "tr": "Turkish", "uk": "Ukrainian", "zh": "Chinese",
}
VARIABLES = ("source", "source_context", "target_context", "src_lang", "tgt_lang", "src_code", "tgt_code", "examples")


def language_name(code: str) -> str:
    """English name of an ISO 639-1 code; an unknown code is used as given."""
    return LANGUAGE_NAMES.get(code.split("_")[0].split("-")[0].lower(), code)


@dataclass(frozen=True)
class Prompt:
    """A rendered prompt and how an answer follows it: ``lead`` goes between the prompt and the answer text (a
    space in a plain completion prompt, nothing after a chat template's generation prompt); ``chat`` says whether
    the model's chat template was used (then the text already holds BOS, so it is tokenized without special
    tokens)."""

    text: str
    lead: str
    chat: bool


@dataclass
class PromptBuilder:
    """Renders prompts for one model's tokenizer with one request template."""

    tokenizer: object
    template: str = DEFAULT_TEMPLATE
    origin: str = "default"  # the template file's path, for error messages
    examples: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        import jinja2
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        env = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined, keep_trailing_newline=False)
        try:
            self._compiled = env.from_string(self.template)
        except jinja2.TemplateSyntaxError as exc:
            raise InputError(f"bad prompt template ({exc.message})", self.origin, exc.lineno) from None

    @classmethod
    def from_file(cls, tokenizer, path: str | Path | None) -> PromptBuilder:
        """The default template, or the one in ``path`` (UTF-8 Jinja text)."""
        if path is None:
            return cls(tokenizer)
        try:
            text = Path(path).read_text("utf-8")
        except FileNotFoundError:
            raise InputError("prompt template not found", str(path)) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read prompt template ({exc})", str(path)) from None
        return cls(tokenizer, text, str(path))

    @property
    def template_hash(self) -> str:
        """12 hex digits of the request template's sha256 (the signature's ``prompt`` field)."""
        return hashlib.sha256(self.template.encode("utf-8")).hexdigest()[:12]

    @property
    def chat(self) -> bool:
        return bool(getattr(self.tokenizer, "chat_template", None))

    def request(self, source: str, src: str, tgt: str, source_context=(), target_context=()) -> str:
        """The user's request: the template rendered with the variables the module docstring lists."""
        import jinja2

        try:
            return self._compiled.render(source=source, source_context=list(source_context),
                                         target_context=list(target_context), src_lang=language_name(src),
                                         tgt_lang=language_name(tgt), src_code=src, tgt_code=tgt,
                                         examples=self.examples)
        except jinja2.TemplateError as exc:
            raise InputError(f"prompt template: {exc} (variables: {', '.join(VARIABLES)})", self.origin) from None

    def render(self, source: str, src: str, tgt: str, source_context=(), target_context=()) -> Prompt:
        """The whole prompt an answer continues."""
        message = self.request(source, src, tgt, source_context, target_context)
        if self.chat:
            return Prompt(self.render_chat(message), "", True)
        return Prompt(f"{message}\n{language_name(tgt)}:", " ", False)

    def render_chat(self, message: str) -> str:
        """One user message through the model's own chat template, generation prompt added; ``enable_thinking=False``
        is passed to every template (those that do not read it ignore it: Jinja templates see only what they use)."""
        return self.tokenizer.apply_chat_template([{"role": "user", "content": message}], tokenize=False,
                                                  add_generation_prompt=True, enable_thinking=False)


def bos_prefix(tokenizer) -> list[int]:
    """The special tokens the tokenizer puts in front of a text (Llama's and Gemma's BOS; none for Qwen)."""
    plain = tokenizer("a", add_special_tokens=False)["input_ids"]
    full = tokenizer("a", add_special_tokens=True)["input_ids"]
    at = next((i for i in range(len(full)) if full[i:i + len(plain)] == plain), 0)
    return full[:at]


def prompt_ids(tokenizer, prompt: Prompt) -> list[int]:
    """A prompt's token ids: a chat prompt as rendered (its text holds BOS), a plain one after the tokenizer's BOS."""
    specials = [] if prompt.chat else bos_prefix(tokenizer)
    return specials + tokenizer(prompt.text, add_special_tokens=False)["input_ids"]
