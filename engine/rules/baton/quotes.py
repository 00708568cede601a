"""The words of ``001_9a1f9b532ead407c.txt`` ("Combate", Portuguese) that each BAT rule implements, quoted as the
document writes them, its spaces before punctuation kept (``docs/rules.md`` shows them beside the rule's English
gloss; tests/rules/test_rule_quotes.py checks each occurs in the document when the source documents are at hand).
BAT-00 (the dice the document leaves unsaid) quotes the test the document names without its dice."""

QUOTES: dict[str, str] = {
    "BAT-00": "Se for bem-sucedido no teste de perícia , ele causa o dano da arma no oponente, caso contrário, ele erra "
              "o alvo e não causa dano algum.",
    "BAT-01": "A iniciativa representa o foco do combate em cada momento, indicando quem tem o holofote para agir. Ela "
              "é passada como um bastão entre os personagens ao longo do confronto.",
    "BAT-02": "Quando um combate se inicia, um PJ que não esteja surpreendido, à escolha dos jogadores, começa com a "
              "iniciativa . Caso todos os PJs estejam surpreendidos, um oponente, à escolha do Mestre , começa com a "
              "iniciativa , ao invés disso.",
    "BAT-03": "Quando tem a iniciativa , um personagem pode fazer, em qualquer ordem, uma ação maior , uma ação menor e "
              "um movimento .",
    "BAT-04": "Um personagem pode usar sua ação maior para: • Fazer uma ação de superar obstáculo , como atacar um "
              "oponente ou conjurar um feitiço. • Fazer uma ação de criar oportunidade , como distrair um oponente ou "
              "manipular o campo de batalha. • Pegar um item na mochila . • Ativar o efeito de um anel mágico .",
    "BAT-05": "Um personagem pode usar sua ação menor para: • Gritar um comando. • Equipar ou guardar uma arma. • Soltar "
              "ou pegar um item no chão. • Pegar um item em um bolso ou algibeira. • Pegar uma poção de um bolso ou "
              "algibeira e bebê-la. • Ativar o efeito de um Item de Poder . • Realizar um milagre .",
    "BAT-06": "Um personagem pode usar seu movimento para: • Mover-se até o limite do seu deslocamento. • Levantar-se, "
              "caso esteja caído .",
    "BAT-07": "Um personagem pode fazer uma ação maior ou uma ação menor enquanto se move.",
    "BAT-08": "MANTENDO A INICIATIVA: Se um personagem fizer um teste de perícia como parte de sua ação maior e o "
              "resultado do dado for par, ele mantém a iniciativa do seu lado. Nesse caso, ele deve passar a "
              "iniciativa para um aliado à sua escolha, priorizando personagens que ainda não agiram no combate.",
    "BAT-09": "PERDENDO A INICIATIVA: Se um personagem não fizer um teste de perícia como parte de sua ação maior ou se "
              "fizer, mas o resultado do dado for ímpar, ele deve passar a iniciativa para o lado do oponente.",
    "BAT-10": "Durante o combate, um turno é o período de tempo em que um lado do combate mantém a iniciativa . Um turno "
              "começa para o personagem quando a iniciativa é passada para o seu lado e termina quando ela é perdida.",
    "BAT-11": "EFEITOS POR TURNOS: Uma condição ou efeito que acontece por turno afeta o alvo sempre que a iniciativa "
              "volta para o lado dele e se encerra depois que um número definido de turnos tenham passado para ele.",
    "BAT-12": "Para atacar com uma arma, o personagem faz uma ação de superar obstáculo usando a especialização de "
              "Lutar com [Arma] adequada contra um oponente que esteja dentro de seu alcance.",
    "BAT-13": "Alguns equipamentos ou habilidades podem permitir que um personagem faça um contra-ataque, isto é, um "
              "ataque como resposta a um ataque de um oponente. Nesses casos, um contra-ataque não pode ser "
              "desencadeado por outro contra-ataque.",
    "BAT-14": "Ele pode usar a perícia Esquiva para ataques físicos em alcance corpo a corpo ou Escudo para qualquer "
              "ataque físico, seja em alcance corpo a corpo, seja à distância.",
    "BAT-15": "Magos esgotados, bardos, ladinos e aliados criativos podem usar ações de criar oportunidade para "
              "influenciar a batalha sem causar dano diretamente.",
    "BAT-16": "A Proteção de um personagem é determinada pela soma da Proteção concedida por cada camada de armadura "
              "que ele estiver vestindo.",
    "BAT-17": "Para cada 6 pontos de Proteção , o personagem tem uma chance negativa em testes de perícia que sofrem "
              "Penalidade de Proteção.",
    "BAT-18": "Se a Proteção de um personagem chegar a zero, ele fica desprotegido e começa a sofrer dano no Vigor .",
    "BAT-19": "Ao final de cada combate, a Proteção do personagem é totalmente restaurada.",
    "BAT-20": "Um personagem perde Vigor quando faz um esforço extremo para evitar sofrer um golpe letal. O Vigor máximo "
              "de um personagem é igual ao seu valor atual de Vida.",
    "BAT-21": "Se o Vigor de um personagem chegar a zero, ele fica exausto e começa a sofrer ferimentos .",
    "BAT-22": "A Vida máxima de um personagem é igual a 6 + (2 × Físico ).",
    "BAT-23": "Quando um dano recebido não pode ser absorvido por sua Proteção ou Vigor , o personagem sofre um "
              "ferimento , que reduz seu valor atual de Vida .",
    "BAT-24": "Para cada 6 pontos de Vida que tenha sido reduzido, o personagem tem uma chance negativa em qualquer "
              "teste de perícia .",
    "BAT-25": "Se a Vida de um personagem chegar a zero, ele morre.",
    "BAT-26": "Qualquer dano que atinja a Vida causa um ferimento no personagem com severidade igual ao valor do dano "
              "recebido. A soma da severidade de todos os ferimentos é subtraída da Vida do personagem.",
    "BAT-27": "A severidade de um ferimento leve não aumenta naturalmente. … A severidade de um ferimento moderado "
              "aumenta em 1 ao final de cada dia. … A severidade de um ferimento grave aumenta em 2 ao final de cada "
              "dia.",
    "BAT-28": "Uma vez por dia, durante um descanso longo , o personagem pode escolher um de seus ferimentos para tentar "
              "recuperar e/ou impedir que sua severidade aumente. Para isso, ele realiza um teste de Físico com "
              "dificuldade igual a 7 + a severidade atual do ferimento.",
    "BAT-29": "O personagem, ou alguém que o auxilie, pode tentar tratar um ferimento para facilitar sua recuperação "
              "através de um teste de Tratar Ferimentos com dificuldade igual a 7 + a severidade atual do ferimento.",
    "BAT-30": "DESCANSO CURTO: Uma vez por turno do dia , um personagem pode fazer um descanso curto de alguns minutos "
              "para recuperar o fôlego. Durante um descanso curto, ele recupera 1d6 + Físico pontos de Vigor .",
    "BAT-31": "DESCANSO LONGO: Quando dorme uma boa noite de sono, um personagem recupera todo o seu Vigor . Além disso, "
              "ele pode tentar recuperar um ferimento à sua escolha de acordo com as regras descritas acima.",
    "BAT-32": "Um personagem pode usar sua ação maior para desarmar um oponente. Para fazer isso, ele faz um teste de "
              "Lutar com [Arma] com dificuldade igual a 7 + a perícia de Lutar com [Arma] do oponente.",
    "BAT-33": "Quando tiver usado todo o seu deslocamento, um personagem pode usar sua ação maior para se deslocar além "
              "do seu limite. Para fazer isso, ele faz um teste de Agilidade ou Atletismo com dificuldade 8.",
    "BAT-34": "Um personagem pode usar sua ação maior para agarrar um oponente, jogá-lo no chão ou empurrá-lo. Para "
              "fazer isso, ele faz um teste de Físico ou Lutar Desarmado com dificuldade igual a 7 + o Físico , Lutar "
              "Desarmado ou Esquiva do oponente.",
    "BAT-35": "Quando um personagem faz um ataque no final de um deslocamento, ele pode receber +1 na escala de dano "
              "desse ataque para cada 3 metros percorridos em linha reta. No entanto, se fizer isso, ele fica exposto "
              "até seu próximo turno .",
    "BAT-36": "Ao obter um sucesso crítico em uma rolagem de ataque, o personagem pode optar por causar um dano extra "
              "equivalente ao valor máximo de dano desse ataque, em vez de receber um ponto de Destino .",
    "BAT-37": "Ataques corpo a corpo contra oponentes desprevenidos têm uma chance positiva para acertar e são sempre "
              "considerados acerto crítico .",
    "BAT-38": "Quando um personagem se move para fora do alcance de um inimigo que esteja empunhando uma arma corpo a "
              "corpo, ele permite que esse inimigo realize imediatamente um ataque contra ele.",
    "BAT-39": "Um personagem pode se mover para fora do alcance de um inimigo sem desencadear um ataque de oportunidade "
              ", mas ao fazer isso seu deslocamento é reduzido à metade.",
    "BAT-40": "Ataques à distância contra um personagem que esteja parcialmente escondido atrás de um objeto têm uma "
              "chance negativa para acertar.",
    "BAT-41": "Ataques à distância precisam de linha de visão para serem desferidos. Nenhum personagem pode ser alvo de "
              "um ataque à distância se houver um obstáculo cobrindo completamente a linha de visão de um atirador.",
    "BAT-42": "O personagem é considerado como estando em posição elevada .",
    "BAT-43": "O personagem faz um único teste de perícia utilizando a especialização de Lutar com [Arma] da arma da mão "
              "dominante, isto é, a arma principal. • Se acertar, o personagem causa dano extra equivalente ao dano da "
              "arma secundária.",
    "BAT-44": "Um personagem tem uma chance positiva para acertar quando faz um ataque de uma posição elevada.",
    "BAT-45": "Um personagem recebe uma chance positiva em sua rolagem de ataque se o seu alvo estiver em alcance corpo "
              "a corpo de outro oponente.",
    "BAT-46": "Para evitar o contratempo de um terreno difícil, o personagem deve passar em um teste de Atletismo ou "
              "Agilidade com dificuldade igual a 7 + 1 para cada 1,5 metro de terreno difícil que ele está tentando "
              "atravessar.",
    "BAT-47": "Uma queda causa um ferimento com severidade igual a 1 para cada 1,5 metro de queda. O personagem pode "
              "fazer um teste de Agilidade contra uma dificuldade igual a 7 + a severidade do ferimento para reduzi-la "
              "pela metade, arredondando para cima.",
    "BAT-48": "Quando um personagem faz um ataque contra um oponente no final de uma queda, ele pode receber +1 na "
              "escala de dano desse ataque para cada 1,5 metro de queda.",
    "BAT-49": "Um personagem consegue prender a respiração debaixo d'água ou em ambientes sem ar por 1 minuto por nível "
              "de Físico . Depois disso, ele sofre 1d6 de dano de fadiga por minuto sem respirar.",
    "BAT-50": "Quando um personagem entra em contato com fogo ou outra fonte intensa de calor, ele sofre um ferimento "
              "que piora enquanto permanecer em contato com o fogo. A severidade desse ferimento aumenta a cada turno .",
    "BAT-51": "Dano necrótico sempre é considerado dano direto . Além disso, ferimentos causados por esse tipo de dano "
              "não se recuperam naturalmente, exigindo algum tipo de tratamento mágico como um milagre ou poção de "
              "cura .",
    "BAT-52": "Dano divino é sempre considerado um dano crítico contra mortos-vivos.",
    "BAT-53": "Ao entrar em contato com o veneno, o personagem deve fazer um teste de Físico com dificuldade igual a 7 + "
              "a potência do veneno. Se for bem-sucedido, ele sofre apenas seu efeito parcial, caso contrário ele "
              "sofre o efeito total.",
    "BAT-54": "AGARRADO: Um personagem agarrado fica exposto . Se o personagem agarrando for de tamanho equivalente a "
              "ele, o personagem agarrado fica sobrecarregado . Se o personagem agarrando for maior que ele, o "
              "personagem agarrado fica preso .",
    "BAT-55": "AGARRANDO: Um personagem agarrando outro fica exposto para outros personagens, exceto para aquele que "
              "está agarrado .",
    "BAT-56": "ABALADO: Um personagem abalado tem uma chance negativa em testes para atacar e em testes de perícia que "
              "sofrem penalidade de proteção .",
    "BAT-57": "CAÍDO: O deslocamento de um personagem caído é reduzido à metade e ele fica exposto .",
    "BAT-58": "CONFUSO: Quando tem a iniciativa , um personagem confuso deve rolar 1d6: Com 1–3 ele movimenta-se "
              "aleatoriamente; com 4–5 ele ataca um personagem aleatório dentro do seu alcance; e com 6 ele não faz "
              "nada.",
    "BAT-59": "EXPOSTO: Outros personagens têm uma chance positiva para atacar um personagem exposto.",
    "BAT-60": "LENTO: Quando tem a iniciativa , um personagem lento só pode fazer uma ação maior ou uma ação menor ou um "
              "movimento .",
    "BAT-61": "PARALISADO: Quando tem a iniciativa , um personagem paralisado não pode se movimentar ou fazer ações que "
              "exijam um movimento .",
    "BAT-62": "PETRIFICADO: Um personagem petrificado vira uma estátua de pedra.",
    "BAT-63": "PRESO: Quando tem a iniciativa , um personagem preso não pode fazer ações que exijam um movimento . "
              "Tentar se soltar gasta uma ação maior .",
    "BAT-64": "SOBRECARREGADO: Para um personagem sobrecarregado, deslocar-se é equivalente a atravessar um terreno "
              "difícil exaustivo.",
}
