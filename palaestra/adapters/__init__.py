"""Research adapters: Palaestra's games in OpenSpiel and PettingZoo.

``palaestra.adapters.openspiel`` registers the games with OpenSpiel (``pyspiel``);
``palaestra.adapters.pettingzoo`` offers them as PettingZoo AEC environments. Both need the
``research`` extra (``pip install 'palaestra[research]'``); the rest of Palaestra does not, so this
package imports neither framework itself: import the submodule you need.
"""
