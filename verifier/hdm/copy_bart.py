"""A BART with a copy head (pointer-generator, See et al. 2017) for small generators trained
from scratch.

A small transformer trained from scratch learns the query language long before it learns to
read its input: on the bench data its cross-attention stays on the first source token for
thousands of steps and every question gets the same query.  Copying a question token through
the cross-attention and the vocabulary projection is an indirect path that takes long to
form.  The copy head makes it direct: at every output step

* a copy attention over the encoder's last hidden states (query from the decoder's last
  hidden state, one head, padding and the source's end-of-sequence token masked),
* a gate ``g = sigmoid(w . [decoder state; attended encoder state] + b)``,
* ``P(token) = g * softmax(lm_logits)[token] + (1 - g) * sum of the copy attention on the
  source positions holding ``token``.

The model's ``logits`` are ``log P`` (normalised, so ``log_softmax(logits) == logits``):
beam search, greedy search and teacher forcing (:class:`~verifier.hdm.features.Scorer`) use
them unchanged, and the confidence score stays the n-th root of the sequence probability.
The encoder, its activations (the HDM features) and Monte Carlo dropout are BART's.

The forward pass needs the source token ids: ``input_ids`` when the encoder runs in the
same call, else ``source_ids`` (:meth:`CopyBartForConditionalGeneration.generate` passes them
along, and ``generate`` expands them for beam search like any model input).

The classes are registered with ``transformers``' auto classes (model type
``hdm_copy_bart``) when this module is imported; :func:`verifier.hdm.seq2seq.load_seq2seq`
imports it, so ``save_pretrained`` / ``load_seq2seq`` round-trip.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn
from transformers import (AutoConfig, AutoModelForSeq2SeqLM, BartConfig,
                          BartForConditionalGeneration)
from transformers.modeling_outputs import Seq2SeqLMOutput

__all__ = ["COPY_MODEL_TYPE", "CopyBartConfig", "CopyBartForConditionalGeneration"]

#: ``model_type`` of the copy model in ``config.json``
COPY_MODEL_TYPE = "hdm_copy_bart"

_TINY = 1e-12


class CopyBartConfig(BartConfig):
    """:class:`transformers.BartConfig` of a BART with a copy head (no extra settings)."""

    model_type = COPY_MODEL_TYPE


class CopyBartForConditionalGeneration(BartForConditionalGeneration):
    """BART whose output distribution mixes generating from the vocabulary and copying a
    source token (see the module docstring)."""

    config_class = CopyBartConfig

    def __init__(self, config: CopyBartConfig) -> None:
        super().__init__(config)
        d = config.d_model
        self.copy_query = nn.Linear(d, d, bias=False)
        self.copy_key = nn.Linear(d, d, bias=False)
        self.copy_gate = nn.Linear(2 * d, 1)
        self.post_init()

    def copy_attention(self, decoder_states: torch.Tensor, encoder_states: torch.Tensor,
                       source_ids: torch.Tensor, attention_mask: torch.Tensor | None
                       ) -> tuple[torch.Tensor, torch.Tensor]:
        """``(copy attention [B, T, S], generation gate g [B, T, 1])``, both float32."""
        valid = (source_ids != self.config.pad_token_id)
        if attention_mask is not None:
            valid = valid & attention_mask.bool()
        content = valid & (source_ids != self.config.eos_token_id)
        # a source of special tokens only (empty question): copy from what there is
        valid = torch.where(content.any(-1, keepdim=True), content, valid)
        q = self.copy_query(decoder_states)
        k = self.copy_key(encoder_states)
        scores = torch.matmul(q, k.transpose(1, 2)).float() / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(~valid[:, None, :], torch.finfo(scores.dtype).min)
        attn = torch.softmax(scores, dim=-1)
        context = torch.matmul(attn.to(encoder_states.dtype), encoder_states)
        gate = torch.sigmoid(self.copy_gate(torch.cat([decoder_states, context], -1)).float())
        return attn, gate

    @staticmethod
    def mix(lm_logits: torch.Tensor, attn: torch.Tensor, gate: torch.Tensor,
            source_ids: torch.Tensor) -> torch.Tensor:
        """``log(g * softmax(lm_logits) + (1 - g) * copy)``, the copy probabilities being
        ``attn`` scattered onto the source tokens ([B, T, V], float32).  Without autograd the
        [B, T, V] tensor is built in place (one allocation: beam search and MC dropout)."""
        index = source_ids[:, None, :].expand(-1, attn.shape[1], -1)
        copy = attn * (1.0 - gate)
        if torch.is_grad_enabled():
            probs = torch.softmax(lm_logits.float(), dim=-1) * gate
            return probs.scatter_add(-1, index, copy).clamp_min(_TINY).log()
        probs = torch.softmax(lm_logits.float(), dim=-1).mul_(gate)
        return probs.scatter_add_(-1, index, copy).clamp_min_(_TINY).log_()

    def forward(self, input_ids: torch.LongTensor | None = None,
                attention_mask: torch.Tensor | None = None,
                decoder_input_ids: torch.LongTensor | None = None,
                decoder_attention_mask: torch.LongTensor | None = None,
                encoder_outputs: Any = None, past_key_values: Any = None,
                inputs_embeds: torch.Tensor | None = None,
                decoder_inputs_embeds: torch.Tensor | None = None,
                labels: torch.LongTensor | None = None, use_cache: bool | None = None,
                source_ids: torch.LongTensor | None = None, **kwargs: Any) -> Seq2SeqLMOutput:
        """BART's forward with the copy mixture; ``logits`` are log-probabilities.

        Raises:
            ValueError: neither ``input_ids`` nor ``source_ids`` given.
        """
        src = source_ids if source_ids is not None else input_ids
        if src is None:
            raise ValueError("the copy head needs the source token ids (input_ids or source_ids)")
        if labels is not None:
            use_cache = False
            if decoder_input_ids is None and decoder_inputs_embeds is None:
                from transformers.models.bart.modeling_bart import shift_tokens_right
                decoder_input_ids = shift_tokens_right(labels, self.config.pad_token_id,
                                                       self.config.decoder_start_token_id)
        kwargs.pop("return_dict", None)
        outputs = self.model(input_ids, attention_mask=attention_mask,
                             decoder_input_ids=decoder_input_ids, encoder_outputs=encoder_outputs,
                             decoder_attention_mask=decoder_attention_mask,
                             past_key_values=past_key_values, inputs_embeds=inputs_embeds,
                             decoder_inputs_embeds=decoder_inputs_embeds, use_cache=use_cache,
                             return_dict=True, **kwargs)
        dec = outputs.last_hidden_state
        lm_logits = self.lm_head(dec) + self.final_logits_bias.to(dec.device)
        src = src.to(dec.device)
        attn, gate = self.copy_attention(dec, outputs.encoder_last_hidden_state, src,
                                         attention_mask)
        logits = self.mix(lm_logits, attn, gate, src)
        loss = None
        if labels is not None:
            loss = nn.functional.nll_loss(logits.view(-1, logits.shape[-1]),
                                          labels.to(logits.device).view(-1), ignore_index=-100)
        return Seq2SeqLMOutput(
            loss=loss, logits=logits, past_key_values=outputs.past_key_values,
            decoder_hidden_states=outputs.decoder_hidden_states,
            decoder_attentions=outputs.decoder_attentions,
            cross_attentions=outputs.cross_attentions,
            encoder_last_hidden_state=outputs.encoder_last_hidden_state,
            encoder_hidden_states=outputs.encoder_hidden_states,
            encoder_attentions=outputs.encoder_attentions)

    @torch.no_grad()
    def generate(self, inputs: torch.Tensor | None = None, **kwargs: Any) -> Any:
        """``transformers``' ``generate`` with the source ids passed on to every step."""
        if kwargs.get("source_ids") is None:
            src = inputs if inputs is not None else kwargs.get("input_ids")
            if src is None:
                raise ValueError("the copy head needs the source token ids (input_ids)")
            kwargs["source_ids"] = src
        return super().generate(inputs, **kwargs)


AutoConfig.register(COPY_MODEL_TYPE, CopyBartConfig, exist_ok=True)
AutoModelForSeq2SeqLM.register(CopyBartConfig, CopyBartForConditionalGeneration, exist_ok=True)
