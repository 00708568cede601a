"""The words of ``000_d3146b5d9a01d6bb.txt`` ("Combate Aéreo", Portuguese) that each AIR rule implements, quoted as
the document writes them (``docs/rules.md`` shows them beside the rule's English gloss; tests/rules/test_rule_quotes.py
checks each occurs in the document when the source documents are at hand)."""

QUOTES: dict[str, str] = {
    "AIR-01": "As regras abaixo valem pra quem voa e pra quem está em terreno elevado, como telhados e plataformas.",
    "AIR-02": "A altura no mapa é contada em camadas de 1m, empilhadas sobre a grade. A camada 0 é o chão: quem voa até "
              "1m acima do chão está na camada 1, de 1m a 2m acima na camada 2, e assim por diante.",
    "AIR-03": "A distância entre dois personagens é medida em linha reta, contando a altura.",
    "AIR-04": "Um personagem engaja e é engajado por quem está numa casa vizinha, na mesma camada ou numa camada logo "
              "acima ou abaixo da dele.",
    "AIR-05": "A partir de três camadas de diferença, o ataque corpo a corpo não alcança mais, a não ser que o alcance "
              "do personagem ou da arma seja maior: cada 1m extra de alcance (como o da DEX) alcança uma camada a mais.",
    "AIR-06": "Alçar voo: sair do chão custa metade do movimento do personagem.",
    "AIR-07": "Movimento vertical: subir uma camada custa 4m de movimento, o dobro do horizontal. Descer uma camada "
              "custa 2m.",
    "AIR-08": "Manter o voo: cada vez que o personagem passa no ar custa a sua Ação Bônus. Alçar voo e pousar na mesma "
              "vez não custa a Ação Bônus.",
    "AIR-09": "Fora isso, quem voa se move no ar com a mesma velocidade que tem no solo.",
    "AIR-10": "Um personagem que está voando cai quando: • fica Caído, Morrendo, Desmaiado ou Atordoado; • perde a "
              "movimentação (como Congelado, Paralisado ou Agarrado por quem não voa) ou a Ação Bônus (como "
              "Restringido); • não gasta a Ação Bônus pra se manter no ar; • falha na rolagem de queda.",
    "AIR-11": "Rolagem de queda: sempre que um personagem voando é atingido por um ataque (Raspão ou melhor), ele rola "
              "1d10: • 1 ou 2: nada acontece; • 3 ou 4: desce 1 camada; • 5 ou 6: desce 2 camadas; • 7 ou 8: desce 3 "
              "camadas; • 9 ou 10: cai direto pro chão.",
    "AIR-12": "Dano de queda: quem chega ao chão caindo sofre 5% do HP máximo por camada acima da primeira, até 50% do "
              "HP máximo, e fica Caído. Descer camadas sem chegar ao chão não causa dano.",
    "AIR-13": "Os obstáculos têm altura. Entre personagens em alturas diferentes, a cobertura é decidida pela linha de "
              "visão entre eles: um obstáculo que fica abaixo da linha não protege, e um que corta a linha dá "
              "cobertura parcial (ou total, se for uma parede).",
    "AIR-14": "Na prática, uma mureta protege quem está colado nela contra quem ataca do chão, mas não contra quem atira "
              "de bem alto, e paredes mais altas que quem voa continuam bloqueando.",
    "AIR-15": "Quem está no alto também enxerga por cima de obstáculos que tapam a visão de quem está no chão.",
    "AIR-16": "Essa conta é feita pelo programa do RPG.",
    "AIR-17": "A altura não dá vantagem pra acertar.",
}
